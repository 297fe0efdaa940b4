/**
 * Pre Questionaire (part 1, 7; part 2, Library > Questions): the project's pre-screen questions in
 * order, in the grid kit's editable table. Add one from the library (a copy) or write a new one; edit,
 * soft delete ('Are you sure?') and reorder by dragging, from the keyboard or with the arrows (each
 * move saved at once).
 */
import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpen, Plus } from "lucide-react";
import { MSG } from "../../../../../shared/messages.ts";
import { DEFAULT_LANGUAGE, QuestionForm } from "../../../../../shared/schemas/library.ts";
import { QUESTION_TYPES } from "../../../../../shared/schemas/library.ts";
import { api } from "../../../lib/api.ts";
import {
  addProjectQuestion,
  listProjectQuestions,
  reorderProjectQuestions,
  updateProjectQuestion,
} from "../../../../../shared/api/project-parts.ts";
import { notify } from "../../../lib/notify.ts";
import { useCanEdit } from "../../../components/data-grid/DataGrid.tsx";
import { EditableTable, type TableColumn } from "../../../components/data-grid/EditableTable.tsx";
import { Form, useSchemaForm } from "../../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../../components/form/fields.tsx";
import { SelectField } from "../../../components/form/select-field.tsx";
import { arrayMove } from "../../../components/sortable/SortableList.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import {
  ConfirmDialog,
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog.tsx";
import { RowDialog } from "../../../components/dialogs/RowDialog.tsx";
import { Select } from "../../../components/ui/select.tsx";
import { OptionsSection, QUESTION_TYPE_LABELS, type QuestionRecord } from "../../library/index.ts";
import { projectKey, type ProjectRecord } from "../projects.ts";
import { listTempQuestions } from "../../../../../shared/api/library.ts";
import { RowEditDelete } from "../../../components/data-grid/RowEditDelete.tsx";

const TYPE_OPTIONS = QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }));
const newOption = () => ({ title: "", enable: true, formvalidate: true, diy: true, local: true, quota: 0 });

export function QuestionsTab({ project }: { project: ProjectRecord }) {
  const qc = useQueryClient();
  const canEdit = useCanEdit();
  const key = ["project-questions", project._id];
  const questions = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api(listProjectQuestions, { params: { projectId: project._id } }, { signal })).result,
  });
  const library = useQuery({
    queryKey: ["questions", "temp"],
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await api(listTempQuestions, {}, { signal })).result,
  });
  const [pick, setPick] = React.useState("");
  // remounts the picker after an add, so it shows its placeholder again
  const [pickKey, setPickKey] = React.useState(0);
  const [copying, setCopying] = React.useState(false);
  const [editing, setEditing] = React.useState<QuestionRecord | "new" | null>(null);
  const [removing, setRemoving] = React.useState<QuestionRecord | null>(null);
  const [busyRemove, setBusyRemove] = React.useState(false);

  const refreshCount = () => void qc.invalidateQueries({ queryKey: projectKey(project._id) });

  const reorder = useMutation({
    mutationFn: (ids: string[]) =>
      api(reorderProjectQuestions, { params: { id: project._id }, body: { ids } }),
    onSuccess: (res) => notify.success(res.message),
    onError: () => void qc.invalidateQueries({ queryKey: key }),
  });

  function move(from: number, to: number) {
    const current = qc.getQueryData<QuestionRecord[]>(key);
    if (!current || to < 0 || to >= current.length) return;
    const next = arrayMove(current, from, to);
    qc.setQueryData(key, next);
    reorder.mutate(next.map((q) => q._id));
  }

  async function copy() {
    if (!pick) return;
    setCopying(true);
    try {
      const res = await api(addProjectQuestion, { body: { projectId: project._id, questionId: pick } });
      setPick("");
      setPickKey((k) => k + 1);
      await qc.invalidateQueries({ queryKey: key });
      refreshCount();
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setCopying(false);
    }
  }

  async function remove(q: QuestionRecord) {
    setBusyRemove(true);
    try {
      const res = await api(updateProjectQuestion, {
        params: { questionId: q._id },
        body: { isDeleted: true },
      });
      qc.setQueryData<QuestionRecord[]>(key, (old) => old?.filter((x) => x._id !== q._id));
      refreshCount();
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setBusyRemove(false);
      setRemoving(null);
    }
  }

  const columns: TableColumn<QuestionRecord>[] = [
    {
      id: "position",
      header: "#",
      width: "3rem",
      align: "right",
      className: "tabular-nums text-muted-foreground",
      cell: (_q, i) => `${i + 1}.`,
    },
    {
      id: "question",
      header: "Question",
      cell: (q) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="max-w-96 truncate font-medium">{q.title}</span>
          <Badge tone="slate">{QUESTION_TYPE_LABELS[q.questionType]}</Badge>
        </span>
      ),
    },
    {
      id: "options",
      header: "Options",
      className: "text-xs text-muted-foreground",
      cell: (q) => (
        <span className="block max-w-md truncate">
          {q.questionOption.length
            ? q.questionOption.slice(0, 6).map((o) => o.title).join(" · ") +
              (q.questionOption.length > 6 ? " · …" : "")
            : "Free text answer"}
        </span>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-5">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="flex flex-col gap-1">
            <CardTitle>Add a question</CardTitle>
            <CardDescription>
              Copy one from the library, or write one for this project. Respondents answer them when
              Pre-screen is on (Project Securities).
            </CardDescription>
          </div>
          <Button variant="outline" disabled={!canEdit} onClick={() => setEditing("new")}>
            <Plus /> New question
          </Button>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-2">
          <Select
            key={pickKey}
            ariaLabel="Library question"
            className="w-96 max-w-full"
            value={pick}
            onValueChange={setPick}
            disabled={!canEdit || library.isPending}
            options={(library.data ?? []).map((q) => ({ value: q._id, label: q.title }))}
            placeholder={library.isPending ? "Loading the library…" : "Select a library question"}
          />
          <Button onClick={() => void copy()} disabled={!pick || !canEdit} loading={copying}>
            {copying ? null : <BookOpen />} Add from library
          </Button>
        </CardContent>
      </Card>

      <EditableTable
        caption="Pre-screen questions in order"
        columns={columns}
        rows={questions.data}
        rowKey={(q) => q._id}
        rowProps={() => ({ "data-testid": "project-question" })}
        loading={questions.isPending}
        error={questions.isError ? questions.error : null}
        onRetry={() => void questions.refetch()}
        what="questions"
        emptyText="No questions yet"
        sortable={{ onMove: move, itemLabel: (q) => `question ${q.title}`, disabled: !canEdit }}
        rowActions={(q) => (
          <RowEditDelete
            name={q.title}
            disabled={!canEdit}
            onEdit={() => setEditing(q)}
            onDelete={() => setRemoving(q)}
          />
        )}
      />

      <RowDialog row={editing} onClose={() => setEditing(null)} className="max-w-3xl" keepOnOutsideClick>
        {(q) => (
          <QuestionDialogForm
            projectId={project._id}
            question={q === "new" ? undefined : q}
            onSaved={async () => {
              setEditing(null);
              await qc.invalidateQueries({ queryKey: key });
              refreshCount();
            }}
          />
        )}
      </RowDialog>

      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && !busyRemove && setRemoving(null)}
        title={MSG.areYouSure}
        description={removing ? `"${removing.title}" is removed from the project.` : undefined}
        busy={busyRemove}
        onConfirm={() => (removing ? remove(removing) : undefined)}
      />
    </div>
  );
}

function QuestionDialogForm({
  projectId,
  question,
  onSaved,
}: {
  projectId: string;
  question?: QuestionRecord;
  onSaved: () => void | Promise<void>;
}) {
  const lang = question?.languageId ?? DEFAULT_LANGUAGE;
  const initial = {
    languageId: lang,
    questionTitle: { ...(question?.questionTitle ?? {}), [lang]: question?.questionTitle[lang] ?? "" },
    questionType: question?.questionType ?? "",
    questionOption: question?.questionOption.length ? question.questionOption : [newOption(), newOption()],
    isActive: question?.isActive ?? true,
  };
  const form = useSchemaForm(QuestionForm, initial);

  async function submit(values: QuestionForm) {
    try {
      const res = question
        ? await api(updateProjectQuestion, {
          params: { questionId: question._id },
          body: { ...values, projectId },
        })
        : await api(addProjectQuestion, { body: { ...values, projectId } });
      notify.success(res.message);
      await onSaved();
    } catch (e) {
      // a failed add starts the form again (part 1, 8); an edit keeps what was typed
      if (!question) form.reset(initial);
      throw e;
    }
  }

  return (
    <Form form={form} onSubmit={submit} className="flex max-h-[85vh] flex-col gap-4">
      <DialogHeader>
        <DialogTitle>{question ? "Edit question" : "New question"}</DialogTitle>
        <DialogDescription>Asked before the survey; answers decide who goes on.</DialogDescription>
      </DialogHeader>
      <div className="-mx-1 flex flex-col gap-4 overflow-y-auto px-1 pb-1">
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <TextField
            name={`questionTitle.${lang}`}
            label="Question"
            required
            autoComplete="off"
            hint="At least 4 characters."
          />
          <SelectField
            name="questionType"
            label="Type"
            required
            options={TYPE_OPTIONS}
            placeholder="Select a type"
          />
        </div>
        <OptionsSection />
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>{question ? "Save question" : "Add question"}</SubmitButton>
      </DialogFooter>
    </Form>
  );
}
