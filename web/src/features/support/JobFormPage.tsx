/**
 * /admin/support/job/add and /admin/support/job/:jobid/edit (part 2, Support): Project Code and
 * Interval (minutes, at least 2) required, a comment, Soft and Status; the list opens after a save.
 */
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { useSaveRecord } from "../../lib/save-record.ts";
import {
  BackLink,
  FormActions,
  FormSection,
  LoadedRecord,
  quietNotFound,
} from "../../components/form/FormParts.tsx";
import { addJobCall, getJobCall, updateJobCall } from "../../../../shared/api/support.ts";
import { JobForm } from "../../../../shared/schemas/support.ts";
import type { ScheduledJob } from "./support.ts";

const LIST = "/admin/support/job";

export default function JobFormPage() {
  const { jobid: id } = useParams();
  const job = useQuery({
    queryKey: ["scheduled-job", id],
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (await api(getJobCall, { params: { id: id! } }, { signal, quiet: quietNotFound })).result,
  });
  return (
    <>
      <PageHeader
        title={id ? "Edit Schedule Job" : "Add Schedule Job"}
        description="Watches a project: pauses it at its sample size and closes it after its end date; a Soft job only e-mails its progress report to the manager."
        back={<BackLink to={LIST}>Scheduled Jobs</BackLink>}
      />
      {!id ? <JobEditor /> : (
        <LoadedRecord
          query={job}
          what="scheduled job"
          list={{ to: LIST, label: "Scheduled Jobs" }}
          loadingLabel="Loading scheduled job"
          className="max-w-3xl"
        >
          {(job) => <JobEditor job={job} />}
        </LoadedRecord>
      )}
    </>
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
  const save = useSaveRecord<ScheduledJob>({
    add: addJobCall,
    update: updateJobCall,
    recordKey: (id) => ["scheduled-job", id],
    back: LIST,
  });
  return (
    <Form
      form={form}
      onSubmit={(values: JobForm) => save(values, job?._id)}
      guardUnsaved
      className="flex max-w-3xl flex-col gap-5"
    >
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
      <FormActions cancelTo={LIST} submitLabel={job ? "Save changes" : "Add job"} />
    </Form>
  );
}
