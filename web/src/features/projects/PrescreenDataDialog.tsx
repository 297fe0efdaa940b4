/**
 * Prescreen Data (part 1, 2.6 and 3 "Prescreen report form"): downloads the pre-screen answers of
 * a project as CSV, one row per respondent and one column per question. Hash identifiers (uids,
 * one per line or separated by commas; box of at least 5 rows) limit the rows; questions chosen
 * from the project's list (GET /admin/project/questions/group/:id) limit the columns. With neither,
 * every respondent and question (POST /admin/project/prescreen/report); otherwise
 * POST /admin/project/group/prescreen/report {projectId, userIdentifier, questionIndex}.
 */
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import {
  parseIdentifiers,
  PrescreenReportForm,
  type PrescreenReportForm as PrescreenReportValues,
} from "../../../../shared/schemas/project.ts";
import { api, download } from "../../lib/api.ts";
import {
  groupPrescreenReportCall,
  groupQuestionsCall,
  prescreenReportCall,
} from "../../../../shared/api/project-reports.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextareaField } from "../../components/form/fields.tsx";
import { MultiSelectField } from "../../components/form/multi-select-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";
import type { ProjectRow } from "./projects.ts";
import { subtitle } from "./parts.tsx";

const IDENTIFIERS_PLACEHOLDER = "One per line, or separated by commas\n5f1c0a2b3d4e5f6a7b8c9d0e";

export function PrescreenDataDialog(
  { project, onClose }: { project: ProjectRow | null; onClose: () => void },
) {
  return (
    <RowDialog row={project} onClose={onClose} className="max-w-xl" keepOnOutsideClick>
      {(p) => <PrescreenForm key={p._id} project={p} onDone={onClose} />}
    </RowDialog>
  );
}

function PrescreenForm({ project, onDone }: { project: ProjectRow; onDone: () => void }) {
  const form = useSchemaForm(PrescreenReportForm, {
    projectId: project._id,
    userIdentifier: "",
    questionIndex: [],
  });
  const questions = useQuery({
    queryKey: ["prescreen-questions", project._id],
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api(groupQuestionsCall, { params: { projectId: project._id } }, { signal })).result,
  });
  const options = (questions.data ?? []).map((q) => ({ value: q.value, label: q.label }));

  async function submit(values: PrescreenReportValues) {
    const everything = parseIdentifiers(values.userIdentifier).length === 0 &&
      values.questionIndex.length === 0;
    const { blob, filename } = everything
      ? await download(prescreenReportCall, { body: { projectId: project._id } })
      : await download(groupPrescreenReportCall, { body: { ...values, projectId: project._id } });
    saveBlob(blob, filename ?? `${project.projectCode}-prescreen.csv`);
    notify.success("Export ready");
    onDone();
  }

  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Prescreen Data</DialogTitle>
        <DialogDescription>
          {subtitle(project)}: the pre-screen answers as CSV, one row per respondent and one column per
          question.
        </DialogDescription>
      </DialogHeader>
      <TextareaField
        name="userIdentifier"
        label="Hash identifiers"
        rows={6}
        spellCheck={false}
        autoComplete="off"
        className="[&_textarea]:min-h-32 [&_textarea]:font-mono [&_textarea]:text-xs"
        placeholder={IDENTIFIERS_PLACEHOLDER}
        hint="Leave empty for every respondent."
      />
      <MultiSelectField
        name="questionIndex"
        label="Questions"
        options={options}
        loading={questions.isPending}
        placeholder={questions.isPending
          ? "Loading questions…"
          : options.length
          ? "Every question"
          : "No pre-screen questions"}
        hint="None chosen: every question."
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>
          <Download /> Download
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
