/**
 * /admin/project/child/:projectid/add and /admin/project/child/add (part 1, 2.6): Add Child Project,
 * under the group project of the address, or under one picked on the form. Back link to the
 * parent's child projects; after a save they open.
 */
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { BackLink, FormSkeleton, LoadFailed } from "../common/FormParts.tsx";
import { ChildProjectForm } from "./ChildProjectForm.tsx";
import { projectKey, type ProjectRecord } from "./projects.ts";

export default function ChildProjectAddPage() {
  const { projectid: parentId } = useParams();
  const parent = useQuery({
    queryKey: projectKey(parentId),
    enabled: !!parentId,
    queryFn: async ({ signal }) =>
      (await api.get<ProjectRecord>(`/admin/project/${parentId}`, { signal })).result,
  });
  return (
    <>
      <PageHeader
        title="Add Child Project"
        description={parentId
          ? parent.data
            ? `Under ${parent.data.projectCode} · ${parent.data.projectName}`
            : "Loading the group project…"
          : "A country-level project under a group project: its own sample, price, dates and targeting."}
        back={parentId
          ? <BackLink to={`/admin/project/${parentId}/childs`}>Child projects</BackLink>
          : <BackLink to="/admin/project">Projects</BackLink>}
      />
      {!parentId
        ? <ChildProjectForm pickParent />
        : parent.isPending
        ? <FormSkeleton label="Loading group project" className="max-w-4xl" />
        : parent.isError
        ? (
          <LoadFailed
            what="group project"
            error={parent.error}
            onRetry={() => void parent.refetch()}
            className="max-w-4xl"
          />
        )
        : <ChildProjectForm parent={parent.data} />}
    </>
  );
}
