/**
 * Project Quota (part 2, 5 "Quota sample table"): a quota per qualification, its chosen options and
 * a size per option. Percent is size over the project's sample size to 2 decimals; the total shows
 * in the error colour while it differs from the sample size.
 */
import * as React from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Save, Trash2 } from "lucide-react";
import { api } from "../../../lib/api.ts";
import {
  addQuotaCall,
  listQuotasCall,
  type ProjectQuota,
  updateQuotaCall,
  updateQuotaSizesCall,
} from "../../../../../shared/api/project-parts.ts";
import { notify } from "../../../lib/notify.ts";
import { formatCount } from "../../../lib/format.ts";
import { cn } from "../../../lib/utils.ts";
import { useCanEdit } from "../../../components/data-grid/DataGrid.tsx";
import { EditableTable, type TableColumn } from "../../../components/data-grid/EditableTable.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { Checkbox } from "../../../components/ui/checkbox.tsx";
import { ConfirmDialog } from "../../../components/ui/dialog.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Select } from "../../../components/ui/select.tsx";
import { MSG } from "../../../../../shared/messages.ts";
import type { ProjectRecord } from "../projects.ts";
import { EmptyState, ErrorState, LoadingRows } from "../../../components/display/states.tsx";
import { listQualificationsCall } from "../../../../../shared/api/library.ts";

type Quota = ProjectQuota;
type QuotaOption = Quota["options"][number];
type Qualification = { _id: string; qualificationName: string };

/** size over sample size as a percent with 2 decimals. */
export function quotaPercent(size: number, sampleSize: number): string {
  return sampleSize > 0 ? ((size / sampleSize) * 100).toFixed(2) : "0.00";
}

export function QuotaTab({ project }: { project: ProjectRecord }) {
  const qc = useQueryClient();
  const canEdit = useCanEdit();
  const key = ["quotas", project._id];
  const quotas = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api(listQuotasCall, { params: { projectId: project._id } }, { signal })).result,
  });
  const qualifications = useQuery({
    queryKey: ["qualifications", "all"],
    staleTime: 60_000,
    queryFn: async ({ signal }) =>
      (await api(listQualificationsCall, {}, { signal })).result as Qualification[],
  });
  const [pick, setPick] = React.useState("");
  // remounts the picker after an add, so it shows its placeholder again
  const [pickKey, setPickKey] = React.useState(0);
  const [adding, setAdding] = React.useState(false);
  const [removing, setRemoving] = React.useState<Quota | null>(null);
  const [busyRemove, setBusyRemove] = React.useState(false);

  // an interlocked quota (Gender x Age) leaves its qualifications free for a quota of their own
  const used = new Set((quotas.data ?? []).filter((q) => !q.interlocked).map((q) => q.quotaId._id));
  const choices = (qualifications.data ?? []).filter((q) => !used.has(q._id)).map((q) => ({
    value: q._id,
    label: q.qualificationName,
  }));

  const setList = (list: Quota[]) => qc.setQueryData(key, list);

  async function add() {
    if (!pick) return;
    setAdding(true);
    try {
      const res = await api(addQuotaCall, { params: { projectId: project._id }, body: { quotaId: pick } });
      setList(res.result);
      setPick("");
      setPickKey((k) => k + 1);
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setAdding(false);
    }
  }

  async function remove(q: Quota) {
    setBusyRemove(true);
    try {
      const res = await api(updateQuotaCall, {
        params: { quotaId: q._id, projectId: project._id },
        body: { isDeleted: true },
      });
      setList(res.result);
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setBusyRemove(false);
      setRemoving(null);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <Card>
        <CardHeader>
          <CardTitle>Add quota</CardTitle>
          <CardDescription>
            Pick a qualification, then the options that count and how many completes each may have. Sample
            size: <span className="font-medium text-foreground">{formatCount(project.sampleSize)}</span>.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-2">
          <Select
            key={pickKey}
            ariaLabel="Qualification"
            className="w-72"
            value={pick}
            onValueChange={setPick}
            options={choices}
            disabled={!canEdit || qualifications.isPending}
            placeholder={qualifications.isPending
              ? "Loading qualifications…"
              : choices.length
              ? "Select a qualification"
              : "Every qualification has a quota"}
          />
          <Button onClick={() => void add()} disabled={!pick || !canEdit} loading={adding}>
            {adding ? null : <Plus />} Add quota
          </Button>
        </CardContent>
      </Card>

      {quotas.isPending
        ? <LoadingRows label="Loading quotas" />
        : quotas.isError
        ? <ErrorState what="quotas" error={quotas.error} onRetry={() => void quotas.refetch()} />
        : quotas.data.length === 0
        ? <EmptyState text="No quotas yet" />
        : quotas.data.map((q) => (
          <QuotaCard
            key={q._id}
            quota={q}
            projectId={project._id}
            disabled={!canEdit}
            onChange={setList}
            onRemove={() => setRemoving(q)}
          />
        ))}

      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && !busyRemove && setRemoving(null)}
        title={MSG.areYouSure}
        description={removing ? `The ${removing.quotaId.qualificationName} quota is removed.` : undefined}
        busy={busyRemove}
        onConfirm={() => (removing ? remove(removing) : undefined)}
      />
    </div>
  );
}

function QuotaCard({
  quota,
  projectId,
  disabled,
  onChange,
  onRemove,
}: {
  quota: Quota;
  projectId: string;
  disabled: boolean;
  onChange: (list: Quota[]) => void;
  onRemove: () => void;
}) {
  const selected = quota.options.filter((o) => o.selected);
  const serverSizes = React.useMemo(
    () => Object.fromEntries(quota.options.map((o) => [o.quotaOptionId, String(o.quotaSize)])),
    [quota.options],
  );
  const [sizes, setSizes] = React.useState<Record<string, string>>(serverSizes);
  const [choosing, setChoosing] = React.useState(false);
  const [saving, setSaving] = React.useState(false);
  React.useEffect(() => setSizes(serverSizes), [serverSizes]);

  const bad = selected.filter((o) => !/^\d+$/.test((sizes[o.quotaOptionId] ?? "").trim()));
  const total = selected.reduce((s, o) => s + (Number(sizes[o.quotaOptionId]) || 0), 0);
  const matches = total === quota.sampleSize;
  const dirty = selected.some((o) => (sizes[o.quotaOptionId] ?? "") !== serverSizes[o.quotaOptionId]);
  const titleId = React.useId();
  const columns: TableColumn<QuotaOption>[] = [
    {
      id: "option",
      header: "Option",
      className: "font-medium",
      cell: (o) => o.text,
      footer: "Total",
    },
    {
      id: "size",
      header: "Quota size",
      width: "9rem",
      cell: (o) => {
        const v = sizes[o.quotaOptionId] ?? "";
        return (
          <Input
            value={v}
            inputMode="numeric"
            disabled={disabled}
            aria-label={`Quota size of ${o.text}`}
            aria-invalid={!/^\d+$/.test(v.trim()) || undefined}
            className="h-8 w-28 text-right tabular-nums"
            onChange={(e) => setSizes((s) => ({ ...s, [o.quotaOptionId]: e.target.value }))}
          />
        );
      },
      footer: `${formatCount(total)} of ${formatCount(quota.sampleSize)}`,
      footerProps: {
        className: cn("tabular-nums", !matches && "text-destructive"),
        "data-testid": "quota-total",
        "data-matches": String(matches),
      },
    },
    {
      id: "percent",
      header: "Percent",
      width: "7rem",
      align: "right",
      className: "tabular-nums",
      cell: (o) => `${quotaPercent(Number(sizes[o.quotaOptionId] ?? "") || 0, quota.sampleSize)}%`,
      footer: `${quotaPercent(total, quota.sampleSize)}%`,
      footerProps: { className: cn("tabular-nums", !matches && "text-destructive") },
    },
    {
      id: "completes",
      header: "Completes",
      width: "7rem",
      align: "right",
      className: "tabular-nums",
      cell: (o) => <QuotaCompletes completes={o.completes} size={o.quotaSize} held={o.held ?? 0} />,
      footer: "",
    },
  ];

  async function toggle(optionId: string, on: boolean) {
    const ids = quota.options.filter((o) => (o.quotaOptionId === optionId ? on : o.selected)).map((o) =>
      o.quotaOptionId
    );
    setChoosing(true);
    try {
      const res = await api(updateQuotaCall, {
        params: { quotaId: quota._id, projectId },
        body: { quotaOptionId: ids },
      });
      onChange(res.result);
    } catch {
      // shown by the API client
    } finally {
      setChoosing(false);
    }
  }

  async function save() {
    setSaving(true);
    try {
      const res = await api(updateQuotaSizesCall, {
        params: { quotaId: quota._id, projectId },
        body: {
          quotaValue: selected.map((o) => ({
            quotaOptionId: o.quotaOptionId,
            quotaSize: Number(sizes[o.quotaOptionId] ?? 0),
          })),
        },
      });
      onChange(res.result);
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card role="group" aria-labelledby={titleId} data-testid="quota-card">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle id={titleId}>{quota.quotaId.qualificationName}</CardTitle>
          <CardDescription>
            {quota.interlocked
              ? `Interlocked: ${quota.options.length} combination${
                quota.options.length === 1 ? "" : "s"
              } of ${quota.interlocked.length} qualifications, each counted and closed on its own`
              : quota.grouped
              ? `${quota.options.length} provider cell${
                quota.options.length === 1 ? "" : "s"
              }, each over a set of options with one size, counted and closed on its own`
              : `${selected.length} of ${quota.options.length} options chosen`}
          </CardDescription>
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
          disabled={disabled}
          onClick={onRemove}
        >
          <Trash2 /> Remove
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {quota.interlocked || quota.grouped
          ? null
          : (
            <fieldset className="flex flex-wrap gap-x-4 gap-y-2" disabled={disabled || choosing}>
              <legend className="sr-only">Options of {quota.quotaId.qualificationName}</legend>
              {quota.options.map((o) => {
                const id = `q-${quota._id}-${o.quotaOptionId}`;
                return (
                  <span key={o.quotaOptionId} className="flex items-center gap-1.5">
                    <Checkbox
                      id={id}
                      checked={o.selected}
                      disabled={disabled || choosing}
                      onCheckedChange={(c) => void toggle(o.quotaOptionId, c === true)}
                    />
                    <label htmlFor={id} className="cursor-pointer text-sm">{o.text}</label>
                  </span>
                );
              })}
            </fieldset>
          )}

        {selected.length
          ? (
            <EditableTable
              caption={`Sizes of ${quota.quotaId.qualificationName}`}
              dense
              className="rounded-lg shadow-none"
              columns={columns}
              rows={selected}
              rowKey={(o) => o.quotaOptionId}
            />
          )
          : <p className="text-sm text-muted-foreground">Choose at least one option to give it a size.</p>}

        {selected.length
          ? (
            <div className="flex flex-wrap items-center justify-end gap-3">
              {bad.length
                ? <p className="text-xs font-medium text-destructive" role="alert">{MSG.onlyDigits}</p>
                : !matches
                ? (
                  <p className="text-xs text-destructive">
                    The sizes add up to {formatCount(total)}, not the sample size of{" "}
                    {formatCount(quota.sampleSize)}.
                  </p>
                )
                : null}
              <Button
                onClick={() => void save()}
                disabled={disabled || !dirty || bad.length > 0}
                loading={saving}
              >
                {saving ? null : <Save />} Save sizes
              </Button>
            </div>
          )
          : null}
      </CardContent>
    </Card>
  );
}

/** A cell's completes, with its respondents in the survey (held) and completes past its size. */
function QuotaCompletes({ completes, size, held }: { completes: number; size: number; held: number }) {
  const past = size > 0 ? Math.max(0, completes - size) : 0;
  return (
    <span className="flex flex-col items-end">
      <span>{formatCount(completes)}</span>
      {held > 0 && (
        <span className="text-xs text-muted-foreground" title="Respondents in the client survey now, held">
          {formatCount(held)} in survey
        </span>
      )}
      {past > 0 && (
        <span className="text-xs text-amber-800" title="Completes accepted past the size under a hold">
          {formatCount(past)} past limit
        </span>
      )}
    </span>
  );
}
