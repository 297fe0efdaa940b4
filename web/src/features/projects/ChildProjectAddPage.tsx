/**
 * /admin/project/child/:projectid/add and /admin/project/child/add (part 1, 2.6): Add Child Project,
 * under the group project of the address, or under one picked on the form. Back link to the
 * parent's child projects; after a save they open. A group project that does not exist says so.
 */
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { getProjectCall } from "../../../../shared/api/projects.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import {
  BackLink,
  LoadedRecord,
  quietNotFound,
  recordDescription,
} from "../../components/form/FormParts.tsx";
import { ChildProjectForm } from "./ChildProjectForm.tsx";
import { projectKey } from "./projects.ts";

export default function ChildProjectAddPage() {
  const { projectid: parentId } = useParams();
  const parent = useQuery({
    queryKey: projectKey(parentId),
    enabled: !!parentId,
    queryFn: async ({ signal }) =>
      (await api(getProjectCall, { params: { id: parentId! } }, { signal, quiet: quietNotFound })).result,
  });
  return (
    <>
      <PageHeader
        title="Add Child Project"
        description={parentId
          ? recordDescription(
            parent,
            "Loading the group project…",
            (p) => `Under ${p.projectCode} · ${p.projectName}`,
          )
          : "A country-level project under a group project: its own sample, price, dates and targeting."}
        back={parentId
          ? <BackLink to={`/admin/project/${parentId}/childs`}>Child projects</BackLink>
          : <BackLink to="/admin/project">Projects</BackLink>}
      />
      {!parentId ? <ChildProjectForm pickParent className="max-w-4xl" /> : (
        <LoadedRecord
          query={parent}
          what="group project"
          list={{ to: "/admin/project", label: "Projects" }}
          loadingLabel="Loading group project"
          className="max-w-4xl"
        >
          {(parent) => <ChildProjectForm parent={parent} className="max-w-4xl" />}
        </LoadedRecord>
      )}
    </>
  );
}
