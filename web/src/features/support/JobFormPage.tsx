/**
 * /admin/support/job/add and /admin/support/job/:jobid/edit (part 2, Support): Project Code and
 * Interval (minutes, at least 2) required, a comment, Soft and Status; the list opens after a save.
 */
import { useParams } from "react-router";
import { useSchemaForm } from "../../components/form/form.tsx";
import { RecordForm, RecordFormPage, type RecordKind } from "../../components/form/RecordFormPage.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { FormSection } from "../../components/form/FormParts.tsx";
import { addJobCall, getJobCall, updateJobCall } from "../../../../shared/api/support.ts";
import { JobForm } from "../../../../shared/schemas/support.ts";
import type { ScheduledJob } from "./support.ts";

const LIST = "/admin/support/job";

const JOB: RecordKind<typeof getJobCall> = {
  what: "scheduled job",
  title: "Schedule Job",
  list: { to: LIST, label: "Scheduled Jobs" },
  get: getJobCall,
  add: addJobCall,
  update: updateJobCall,
  recordKey: (id) => ["scheduled-job", id],
  createLabel: "Add job",
  loadingLabel: "Loading scheduled job",
  width: "max-w-3xl",
};

export default function JobFormPage() {
  const { jobid: id } = useParams();
  return (
    <RecordFormPage
      kind={JOB}
      id={id}
      intro="Watches a project: pauses it at its sample size and closes it after its end date; a Soft job only e-mails its progress report to the manager."
    >
      {(job) => <JobEditor job={job} />}
    </RecordFormPage>
  );
}

function JobEditor({ job }: { job?: ScheduledJob }) {
  const form = useSchemaForm(JobForm, {
    projectCode: job?.projectCode ?? "",
    interval: job ? String(job.interval) : "",
    comment: job?.comment ?? "",
    isSoft: job?.isSoft ?? false,
    isActive: job?.isActive ?? true,
  });
  return (
    <RecordForm kind={JOB} form={form} record={job}>
      <FormSection title="Scheduled job" description="Fields marked * are required.">
        <TextField
          name="projectCode"
          label="Project Code"
          required
          autoComplete="off"
          placeholder="e.g. 10234-1"
        />
        <TextField
          name="interval"
          label="Interval (minutes)"
          required
          inputMode="numeric"
          autoComplete="off"
          placeholder="At least 2"
        />
        <TextareaField name="comment" label="Comment" className="sm:col-span-2" />
        <SwitchField
          name="isSoft"
          label="Soft"
          description="Changes nothing: only e-mails the progress report to the project's manager."
        />
        <SwitchField name="isActive" label="Active" />
      </FormSection>
    </RecordForm>
  );
}
