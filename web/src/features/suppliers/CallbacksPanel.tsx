/**
 * A supplier's signed callbacks (issue 23, item 3): the delivery log (state, event, attempts, last
 * answer or error, times; filters by state and event; CSV) with a Redeliver action on a delivered
 * or failed callback. The same panel on the supplier's page (staff, any supplier) and on the
 * portal's API page (the supplier's own): the calls say which.
 */
import { useMemo } from "react";
import { RotateCw } from "lucide-react";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, ListDecl, RowAction } from "../../components/data-grid/types.ts";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import type { Envelope } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { ListDeclaration } from "../../../../shared/list.ts";
import {
  CALLBACK_EVENT_LABELS,
  CALLBACK_EVENTS,
  CALLBACK_STATE_LABELS,
  CALLBACK_STATES,
  type CallbackState,
  type SupplierCallbackRow,
} from "../../../../shared/api/supplier-callbacks.ts";
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER } from "../../../../shared/callbacks.ts";

export type CallbackCalls = {
  list: ListDeclaration<SupplierCallbackRow, "state" | "event">;
  /** The list call's path parameters (staff: the supplier's id). */
  params?: Record<string, string>;
  redeliver: (callbackId: string) => Promise<Envelope<SupplierCallbackRow>>;
};

const TONE: Record<CallbackState, BadgeTone> = {
  queued: "blue",
  sending: "violet",
  sent: "green",
  failed: "red",
};

const COLUMNS: GridColumn<SupplierCallbackRow>[] = [
  {
    id: "createdAt",
    header: "Queued",
    cell: (r) => <span className="whitespace-nowrap">{formatDateTime(r.createdAt)}</span>,
  },
  { id: "event", header: "Event", cell: (r) => CALLBACK_EVENT_LABELS[r.event] ?? r.event },
  {
    id: "state",
    header: "State",
    cell: (r) => <Badge tone={TONE[r.state]}>{CALLBACK_STATE_LABELS[r.state] ?? r.state}</Badge>,
  },
  { id: "attempts", header: "Attempts", className: "text-right", cell: (r) => r.attempts },
  {
    id: "lastAnswer",
    header: "Last answer",
    className: "max-w-72",
    cell: (r) => <span className="line-clamp-2 break-all" title={r.lastAnswer}>{r.lastAnswer || "—"}</span>,
  },
  {
    id: "updatedAt",
    header: "Last change",
    cell: (r) => <span className="whitespace-nowrap">{formatDateTime(r.updatedAt)}</span>,
  },
  {
    id: "nextAt",
    header: "Next attempt",
    cell: (r) =>
      r.state === "queued" && r.nextAt < "9999"
        ? <span className="whitespace-nowrap">{formatDateTime(r.nextAt)}</span>
        : <span className="text-muted-foreground">—</span>,
  },
  {
    id: "key",
    header: "Idempotency key",
    cell: (r) => <code className="text-xs">{r.key}</code>,
  },
];

export function CallbacksPanel({ calls, className }: { calls: CallbackCalls; className?: string }) {
  const decl = useMemo<ListDecl<SupplierCallbackRow, "state" | "event">>(() => ({
    list: calls.list,
    params: calls.params,
    rowId: (r) => r._id,
    defaultPageSize: 10,
    pageParam: "callbacksPage",
    filters: [
      {
        kind: "select",
        key: "state",
        label: "State",
        options: CALLBACK_STATES.map((s) => ({ value: s, label: CALLBACK_STATE_LABELS[s] })),
      },
      {
        kind: "select",
        key: "event",
        label: "Event",
        options: CALLBACK_EVENTS.map((e) => ({ value: e, label: CALLBACK_EVENT_LABELS[e] })),
      },
      { kind: "export" },
    ],
  }), [calls.list, calls.params]);
  const list = useList(decl);
  const { redeliver } = calls;
  const actions = useMemo<RowAction<SupplierCallbackRow>[]>(() => [{
    label: "Redeliver",
    icon: RotateCw,
    disabled: (r) =>
      r.state === "queued" || r.state === "sending" ? "Not delivered yet: it is on its way" : false,
    onSelect: async (r) => {
      const res = await redeliver(r._id);
      list.patchRow(r._id, res.result);
      notify.success(res.message);
    },
  }], [redeliver, list.patchRow]);

  return (
    <Card className={className} data-testid="callbacks">
      <CardHeader>
        <CardTitle>Callbacks</CardTitle>
        <CardDescription>
          Every outcome and reconcile change sent to the callback URLs, signed with the hash key
          (<code className="rounded bg-muted px-1">{SIGNATURE_HEADER}</code>) and sent with an{" "}
          <code className="rounded bg-muted px-1">{IDEMPOTENCY_HEADER}</code>; failed sends are retried with
          back-off.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <FilterToolbar list={list} />
        <DataGrid
          list={list}
          columns={COLUMNS}
          rowActions={actions}
          caption="Callbacks"
          emptyText="No callbacks yet: they appear here once a respondent reaches an outcome with a callback URL set."
        />
      </CardContent>
    </Card>
  );
}
