/**
 * /admin/project/add and /admin/project/:projectid/edit (part 1, 3 and 5, Group project): every
 * field of the group form on the shared GroupProject schema. The manager defaults to the signed-in
 * user and is locked for MANAGER; Secured Url is yes by default; the status starts at 2 and offers
 * the restricted edit list; a PO number is required for status 6; LOI and IR take digits only.
 * After a save the projects list opens.
 */
import { useParams } from "react-router";
import { GroupProject } from "../../../../shared/schemas/project.ts";
import { addProject, getProjectCall, updateProjectCall } from "../../../../shared/api/projects.ts";
import { useAuth } from "../../lib/auth.ts";
import { useSchemaForm } from "../../components/form/form.tsx";
import { RecordForm, RecordFormPage, type RecordKind } from "../../components/form/RecordFormPage.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { RichTextField } from "../../components/form/rich-text-field.tsx";
import { FormSection } from "../../components/form/FormParts.tsx";
import { CLIENTS } from "../../lib/lookups.ts";
import { LookupField, PoNumberField, StatusField, YesNoField } from "./fields.tsx";
import { MANAGERS, projectKey, type ProjectRecord } from "./projects.ts";

const LIST = "/admin/project";

const PROJECT: RecordKind<typeof getProjectCall> = {
  what: "project",
  list: { to: LIST, label: "Projects" },
  get: getProjectCall,
  add: addProject,
  update: updateProjectCall,
  recordKey: projectKey,
};

export default function GroupProjectFormPage() {
  const { projectid: id } = useParams();
  return (
    <RecordFormPage
      kind={PROJECT}
      id={id}
      intro="A group project for a client; its child projects carry the countries, quotas and suppliers."
      describe={(p) => `${p.projectCode} · ${p.projectName}`}
    >
      {(project) => <GroupProjectEditor project={project} />}
    </RecordFormPage>
  );
}

function GroupProjectEditor({ project }: { project?: ProjectRecord }) {
  const admin = useAuth((s) => s.admin)!;
  const isManager = admin.role === "MANAGER";
  const form = useSchemaForm(GroupProject, {
    projectName: project?.projectName ?? "",
    projectDescription: project?.projectDescription ?? "",
    notes: project?.notes ?? "",
    clientId: project?.clientId ?? "",
    userId: project?.userId ?? admin._id,
    isDynamicThanksUrl: project?.isDynamicThanksUrl ?? true,
    projectStatus: String(project?.projectStatus ?? 2),
    poNumber: project?.poNumber ?? "",
    averageLOI: project ? String(project.averageLOI) : "",
    ir: project ? String(project.ir) : "",
    clientEmail: project?.clientEmail ?? "",
    projectSpecs: project?.projectSpecs ?? "",
  });

  return (
    <RecordForm kind={PROJECT} form={form} record={project}>
      <FormSection title="Project" description="Fields marked * are required.">
        <TextField
          name="projectName"
          label="Project name"
          required
          autoComplete="off"
          className="sm:col-span-2"
          hint="At least 4 characters."
        />
        <LookupField
          name="clientId"
          label="Client"
          source={CLIENTS}
          required
          placeholder="Select a client"
          hint={project ? "Child projects follow the client of their group." : undefined}
        />
        <LookupField
          name="userId"
          label="Project manager"
          source={MANAGERS}
          required
          placeholder="Select a manager"
          disabled={isManager}
          hint={isManager ? "Managers run their own projects." : undefined}
        />
        <StatusField current={project?.projectStatus} />
        <PoNumberField />
        <TextField
          name="averageLOI"
          label="Average LOI"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="Minutes, digits only."
        />
        <TextField
          name="ir"
          label="IR"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="Percent, digits only."
        />
        <TextField name="clientEmail" label="Client email" type="email" autoComplete="off" />
        <YesNoField
          name="isDynamicThanksUrl"
          label="Secured Url"
          hint="Client return links must carry a signature."
        />
      </FormSection>

      <FormSection title="Details" contentClassName="sm:grid-cols-1">
        <TextareaField name="projectDescription" label="Description" rows={3} />
        <TextareaField name="notes" label="Notes" rows={3} hint="For the team; not sent to anyone." />
        <RichTextField
          name="projectSpecs"
          label="Project specs"
          minHeight={240}
          placeholder="Targeting, quotas, deliverables…"
        />
      </FormSection>
    </RecordForm>
  );
}
