/**
 * /admin/library/question (part 2, Library > Questions): the temporary questions in their order.
 * Reorder by dragging a handle (or from the keyboard, or with the arrows); every move is saved at
 * once with PUT /admin/question/temp/reorder, so the order survives a reload. Edit and delete per row.
 */
import * as React from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox, Pencil, RotateCw, Trash2 } from "lucide-react";
import { MSG } from "../../../../shared/messages.ts";
import { api } from "../../lib/api.ts";
import {
  listTempQuestions,
  reorderTempQuestions,
  updateTempQuestion,
} from "../../../../shared/api/library.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { arrayMove, SortableList } from "../../components/sortable/SortableList.tsx";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Button, buttonVariants } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { cn } from "../../lib/utils.ts";
import type { QuestionType } from "../../../../shared/schemas/library.ts";
import {
  LIBRARY_DESCRIPTION,
  QUESTION_TYPE_LABELS,
  type QuestionRecord,
  TEMP_QUESTIONS_KEY,
  useLibraryTabs,
} from "./library.ts";

const TYPE_TONES: Record<QuestionType, BadgeTone> = {
  TEXT: "slate",
  RADIO: "blue",
  DROPDOWN: "violet",
  CHECKBOX: "green",
  MAP: "orange",
};

export default function QuestionsPage() {
  const tabs = useLibraryTabs();
  const qc = useQueryClient();
  const canEdit = useCanEdit();
  const [pendingDelete, setPendingDelete] = React.useState<QuestionRecord | null>(null);
  const [deleting, setDeleting] = React.useState(false);

  const questions = useQuery({
    queryKey: TEMP_QUESTIONS_KEY,
    queryFn: async ({ signal }) => (await api(listTempQuestions, {}, { signal })).result,
  });

  const reorder = useMutation({
    mutationFn: (ids: string[]) => api(reorderTempQuestions, { body: { ids } }),
    onSuccess: (res) => notify.success(res.message),
    // the server keeps the last order it accepted: show that one again
    onError: () => void qc.invalidateQueries({ queryKey: TEMP_QUESTIONS_KEY }),
  });

  function move(from: number, to: number) {
    const current = qc.getQueryData<QuestionRecord[]>(TEMP_QUESTIONS_KEY);
    if (!current || to < 0 || to >= current.length) return;
    const next = arrayMove(current, from, to);
    qc.setQueryData(TEMP_QUESTIONS_KEY, next);
    reorder.mutate(next.map((q) => q._id));
  }

  async function remove(q: QuestionRecord) {
    setDeleting(true);
    try {
      const res = await api(updateTempQuestion, { params: { id: q._id }, body: { isDeleted: true } });
      qc.setQueryData<QuestionRecord[]>(TEMP_QUESTIONS_KEY, (old) => old?.filter((x) => x._id !== q._id));
      notify.success(res.message);
    } catch {
      // the API client has shown the reason
    } finally {
      setDeleting(false);
      setPendingDelete(null);
    }
  }

  const list = questions.data ?? [];

  return (
    <>
      <PageHeader title="Library" description={LIBRARY_DESCRIPTION} tabs={tabs} />
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <p className="text-muted-foreground" aria-live="polite">
          {questions.isSuccess
            ? `${list.length} question${
              list.length === 1 ? "" : "s"
            } · drag a handle or use the arrows to change the order`
            : "\u00a0"}
        </p>
        <div className="ml-auto">
          <NewButton to="/admin/library/question/add">Add Question</NewButton>
        </div>
      </div>

      {questions.isPending
        ? (
          <div className="flex flex-col gap-2" aria-busy="true" aria-label="Loading questions">
            {Array.from({ length: 4 }, (_, i) => <Skeleton key={i} className="h-16 w-full rounded-xl" />)}
          </div>
        )
        : questions.isError
        ? (
          <Card className="flex flex-col items-center gap-3 px-4 py-14 text-center" role="alert">
            <p className="font-medium">The questions could not be loaded.</p>
            <p className="text-muted-foreground">{questions.error.message}</p>
            <Button variant="outline" size="sm" onClick={() => void questions.refetch()}>
              <RotateCw /> Retry
            </Button>
          </Card>
        )
        : list.length === 0
        ? (
          <Card className="flex flex-col items-center gap-2 px-4 py-14 text-muted-foreground">
            <Inbox className="size-8" aria-hidden="true" />
            <p className="font-medium">{MSG.noRows}</p>
          </Card>
        )
        : (
          <SortableList
            items={list}
            getId={(q) => q._id}
            itemLabel={(q) => `question ${q.title}`}
            onMove={move}
            disabled={!canEdit}
            ariaLabel="Questions in order"
            renderItem={(q, row) => (
              <Card
                className={cn(
                  "flex items-center gap-3 px-3 py-2.5",
                  row.dragging && "bg-accent/40",
                  reorder.isPending && "transition-opacity",
                )}
                data-testid="question-row"
              >
                {row.handle}
                <span className="w-6 shrink-0 text-right text-sm tabular-nums text-muted-foreground">
                  {row.index + 1}.
                </span>
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={`/admin/library/question/${q._id}/edit`}
                      className="truncate rounded-sm font-medium hover:text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                      data-testid="question-title"
                    >
                      {q.title}
                    </Link>
                    <Badge tone={TYPE_TONES[q.questionType]}>{QUESTION_TYPE_LABELS[q.questionType]}</Badge>
                  </div>
                  {q.questionOption.length
                    ? (
                      <p className="truncate text-xs text-muted-foreground">
                        {q.questionOption.length} option{q.questionOption.length === 1 ? "" : "s"}:{" "}
                        {q.questionOption.slice(0, 6).map((o) => o.title).join(" · ")}
                        {q.questionOption.length > 6 ? " · …" : ""}
                      </p>
                    )
                    : <p className="text-xs text-muted-foreground">Free text answer</p>}
                </div>
                {row.moveButtons}
                <Link
                  to={`/admin/library/question/${q._id}/edit`}
                  className={buttonVariants({ variant: "ghost", size: "icon-sm" })}
                  aria-label={`Edit ${q.title}`}
                  title="Edit"
                >
                  <Pencil />
                </Link>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                  aria-label={`Delete ${q.title}`}
                  title="Delete"
                  disabled={!canEdit}
                  onClick={() => setPendingDelete(q)}
                >
                  <Trash2 />
                </Button>
              </Card>
            )}
          />
        )}

      <ConfirmDialog
        open={!!pendingDelete}
        onOpenChange={(open) => {
          if (!open && !deleting) setPendingDelete(null);
        }}
        title={MSG.areYouSure}
        busy={deleting}
        onConfirm={() => pendingDelete ? remove(pendingDelete) : undefined}
      />
    </>
  );
}
