/**
 * /admin/api/mappings (APIMANAGER), the "Mappings" tab beside the provider tabs: each provider
 * question with the library qualification it is linked to and, per answer, the library option (or
 * none). "Edit mapping" relinks the question to another qualification or an answer to another option
 * or to none; the answer says which imported projects were re-mapped and which were left as they were.
 */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Button } from "../../components/ui/button.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Select } from "../../components/ui/select.tsx";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";
import {
  Dialog,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { listQualificationsCall } from "../../../../shared/api/library.ts";
import { type ProviderMapping, updateMapping } from "../../../../shared/api/providers.ts";
import { mappingsDecl, providerTabs } from "./imports.ts";

/** The select's value for "no option" (Radix forbids an empty item value). */
const UNLINKED = "unlinked";

/** The answers of a mapping: a plain list, no lines. */
const ANSWERS_LOOK: TableLook = {
  table: "w-full text-sm",
  caption: "sr-only",
  headRow: "text-left text-muted-foreground",
  head: "py-1 font-medium",
  cell: "py-1",
};

export default function MappingsPage() {
  const list = useList<ProviderMapping>(mappingsDecl);
  const [editing, setEditing] = useState<ProviderMapping | null>(null);

  const columns = useMemo<GridColumn<ProviderMapping>[]>(() => [
    { id: "providerName", header: "Provider", cell: (m) => m.providerName },
    {
      id: "questionId",
      header: "Question",
      className: "min-w-44",
      cell: (m) => (
        <div className="flex flex-col">
          <span className="font-medium">{m.questionName}</span>
          <span className="text-xs text-muted-foreground">ID {m.questionId}</span>
        </div>
      ),
    },
    { id: "qualificationName", header: "Library qualification", cell: (m) => m.qualificationName },
    {
      id: "answers",
      header: "Answers -> library options",
      className: "min-w-72",
      cell: (m) => (
        <ul className="flex flex-col gap-0.5 text-sm">
          {m.answers.map((a) => (
            <li key={a.answerId}>
              {a.answerText} <span className="text-xs text-muted-foreground">({a.answerId})</span> →{" "}
              {a.optionText ?? <Badge tone="amber">Unlinked</Badge>}
            </li>
          ))}
        </ul>
      ),
    },
    { id: "imports", header: "Imports", align: "right", cell: (m) => m.imports },
  ], []);

  const actions = useMemo<RowAction<ProviderMapping>[]>(() => [
    { label: "Edit mapping", icon: Link2, onSelect: (m) => setEditing(m) },
  ], []);

  return (
    <>
      <PageHeader
        title="Mappings"
        description="How each provider's questions and answers are linked to library qualifications and options. Imported quotas and pre-screen questions follow these links; a correction applies to future imports and to imported projects still running."
        tabs={providerTabs}
      />
      <FilterToolbar list={list} />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Provider question mappings" />
      {editing
        ? (
          <MappingDialog
            mapping={editing}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void list.invalidate();
            }}
          />
        )
        : null}
    </>
  );
}

function MappingDialog(
  { mapping, onClose, onSaved }: { mapping: ProviderMapping; onClose: () => void; onSaved: () => void },
) {
  const [qualificationId, setQualificationId] = useState(mapping.qualificationId);
  const [links, setLinks] = useState<Record<string, string>>(
    Object.fromEntries(mapping.answers.map((a) => [a.answerId, a.optionId ?? UNLINKED])),
  );
  const [busy, setBusy] = useState(false);
  const qualifications = useQuery({
    queryKey: callKey(listQualificationsCall, "mappings"),
    staleTime: 60_000,
    queryFn: async () => (await api(listQualificationsCall, {})).result,
  });
  const chosen = qualifications.data?.find((q) => q._id === qualificationId);
  const relinked = qualificationId !== mapping.qualificationId;
  const options = relinked
    ? (chosen?.qualificationOptions ?? []).map((o) => ({ _id: o._id, text: o.text }))
    : mapping.options;
  const pickQualification = (id: string) => {
    setQualificationId(id);
    // answers are matched to the new qualification's options by text until chosen otherwise
    const next = qualifications.data?.find((q) => q._id === id)?.qualificationOptions ?? [];
    const norm = (s: string) => s.trim().toLowerCase();
    setLinks(Object.fromEntries(
      mapping.answers.map((a) => [
        a.answerId,
        id === mapping.qualificationId
          ? a.optionId ?? UNLINKED
          : next.find((o) => norm(o.text) === norm(a.answerText))?._id ?? UNLINKED,
      ]),
    ));
  };

  const save = async () => {
    setBusy(true);
    try {
      const res = await api(updateMapping, {
        params: { id: mapping._id },
        body: {
          ...(relinked ? { qualificationId } : {}),
          answers: mapping.answers.map((a) => ({
            answerId: a.answerId,
            optionId: links[a.answerId] === UNLINKED ? null : links[a.answerId],
          })),
        },
      });
      notify.success(res.message);
      onSaved();
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onOpenChange={(o) => !o && !busy && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            Mapping of {mapping.providerName} question {mapping.questionId} ({mapping.questionName})
          </DialogTitle>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Library qualification
            <Select
              ariaLabel="Library qualification"
              value={qualificationId}
              onValueChange={pickQualification}
              options={(qualifications.data ??
                [{ _id: mapping.qualificationId, qualificationName: mapping.qualificationName }])
                .map((q) => ({ value: q._id, label: q.qualificationName }))}
            />
          </label>
          <StaticTable
            look={ANSWERS_LOOK}
            caption="Answers and their library options"
            rows={mapping.answers}
            rowKey={(a) => a.answerId}
            columns={[
              {
                header: "Provider answer",
                className: "pr-3",
                cell: (a) => (
                  <>
                    {a.answerText} <span className="text-xs text-muted-foreground">({a.answerId})</span>
                  </>
                ),
              },
              {
                header: "Library option",
                cell: (a) => (
                  <Select
                    ariaLabel={`Library option of ${a.answerText}`}
                    value={links[a.answerId] ?? UNLINKED}
                    onValueChange={(v) => setLinks((l) => ({ ...l, [a.answerId]: v }))}
                    options={[
                      { value: UNLINKED, label: "Unlinked (not counted in quotas)" },
                      ...options.map((o) => ({ value: o._id, label: o.text })),
                    ]}
                  />
                ),
              },
            ]}
          />
          <p className="text-xs text-muted-foreground">
            Saving applies to future imports and re-maps this provider's imported projects that are still
            running, unless that would drop completes already counted: those are named and left as they are.
          </p>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
          <Button onClick={() => void save()} loading={busy}>Save mapping</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
