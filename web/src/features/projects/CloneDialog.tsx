/** Clone Criteria (the row action): a new group project copied from this one, with what to copy. */
import type * as v from "valibot";
import { useNavigate } from "react-router";
import { Copy } from "lucide-react";
import { CloneOptions } from "../../../../shared/schemas/project.ts";
import { cloneProjectCall } from "../../../../shared/api/projects.ts";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { COUNTRIES } from "../../lib/lookups.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton } from "../../components/form/fields.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { Button } from "../../components/ui/button.tsx";
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";
import { LANGUAGES, type ProjectRow } from "./projects.ts";
import { subtitle } from "./parts.tsx";

const CLONE_DEFAULTS = {
  isPreScreen: true,
  isSupplier: true,
  isLiveUrl: true,
  isQuota: true,
  countryId: "",
  languageId: "en",
};

export function CloneDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  return (
    <RowDialog row={project} onClose={onClose} className="max-w-xl" keepOnOutsideClick>
      {(p) => <CloneForm project={p} />}
    </RowDialog>
  );
}

function CloneForm({ project }: { project: ProjectRow }) {
  const navigate = useNavigate();
  const form = useSchemaForm(CloneOptions, {
    ...CLONE_DEFAULTS,
    countryId: project.projectType === 2 ? project.countryId ?? "" : "",
    languageId: project.projectType === 2 ? project.languageId || "en" : "en",
  });
  const countries = useOptions(COUNTRIES);
  const languages = useOptions(LANGUAGES);
  async function submit(values: v.InferOutput<typeof CloneOptions>) {
    const res = await api(cloneProjectCall, { params: { projectId: project._id }, body: values });
    notify.success(res.message);
    navigate(`/admin/project/${res.result.parentProjectId}/childs`);
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Clone Criteria</DialogTitle>
        <DialogDescription>
          {subtitle(project)}: a new group project {project.projectType === 1
            ? "with a copy of every child project"
            : "holding a copy of this child project"}; counts start at zero.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-3 sm:grid-cols-2">
        <SwitchField name="isPreScreen" label="Pre-screen questions" description="Copy the questions." />
        <SwitchField name="isSupplier" label="Suppliers" description="Copy the supplier maps." />
        <SwitchField name="isLiveUrl" label="Live URL" description="Copy live, test and multi links." />
        <SwitchField name="isQuota" label="Quotas" description="Copy quotas and their sizes." />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          name="countryId"
          label="Country"
          required
          options={countries.options}
          placeholder={countries.loading ? "Loading countries…" : "Select a country"}
        />
        <SelectField
          name="languageId"
          label="Language"
          required
          options={languages.options}
          placeholder={languages.loading ? "Loading languages…" : "Select a language"}
        />
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>
          <Copy /> Clone
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
