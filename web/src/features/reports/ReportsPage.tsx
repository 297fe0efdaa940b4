/**
 * /admin/report (part 2, Reports): six tabs (Client, Supplier, Prescreen, Complete Allocated,
 * Complete, Project Complete) over the router's figures for a range of days, with client and
 * supplier filters, on the shared grid; Export downloads every matching row as CSV, in the grid's
 * columns. The Prescreen tab also downloads a project's pre-screen answers.
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { Download } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowActionEntry } from "../../components/data-grid/types.ts";
import { api, download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { cn } from "../../lib/utils.ts";
import { prescreenReportCall } from "../../../../shared/api/project-reports.ts";
import {
  projectReportTotals,
  REPORT_LISTS,
  type ReportTotals,
  supplierReportTotals,
  TOTALLED,
} from "../../../../shared/api/reports.ts";
import type { ListBody } from "../../../../shared/list.ts";
import {
  isReportKind,
  REPORT_KINDS,
  REPORT_TITLES,
  reportGrid,
  type ReportKind,
  type ReportRow,
} from "./reports.ts";

const TEXT_COLUMNS = new Set(["projectCode", "projectName", "clientName", "supplierName"]);
/**
 * Shown from the column chooser: the parts of Total disqualified, so that Revenue and Expense fit
 * a 1440 px screen (the CSV keeps every column).
 */
const HIDDEN_COLUMNS = new Set(["qualityTerm", "overQuota", "security", "drop"]);

/** The tab's totals over every row its filters and search match (the server sums them), once per filter set. */
function useReportTotals(kind: ReportKind, body: ListBody) {
  const { pageNo: _p, limit: _l, sortBy: _s, sortDir: _d, ...rest } = body;
  return useQuery({
    queryKey: ["report-totals", kind, rest],
    queryFn: async ({ signal }) =>
      (kind === "supplier"
        ? await api(supplierReportTotals, { body: rest }, { signal })
        : await api(projectReportTotals, { body: { ...rest, type: kind } }, { signal })).result,
    placeholderData: (prev) => prev,
  });
}

/** The totals row's cells: each summed figure as its column shows it, "Total" and the row count first. */
function totalsCells(kind: ReportKind, totals: ReportTotals | undefined) {
  if (!totals) return null;
  const summed = new Set<string>(TOTALLED);
  const row = { ...totals } as unknown as ReportRow;
  const cells: Record<string, string> = {};
  for (const c of REPORT_LISTS[kind].columns) {
    if (summed.has(c.key)) cells[c.key] = String(c.value(row) ?? "");
  }
  cells[REPORT_LISTS[kind].columns[0].key] = `Total (${totals.rows} row${totals.rows === 1 ? "" : "s"})`;
  return cells;
}

function ReportTab({ kind }: { kind: ReportKind }) {
  const grid = useMemo(() => reportGrid(kind), [kind]);
  const list = useList(grid);
  // the grid shows the CSV's columns and cells (a few hidden until chosen)
  const columns = useMemo<GridColumn<ReportRow>[]>(
    () =>
      REPORT_LISTS[kind].columns.map((c) => ({
        id: c.key,
        header: c.header,
        align: TEXT_COLUMNS.has(c.key) ? "left" : "right",
        // names wrap in their column rather than push the figures off screen
        className: TEXT_COLUMNS.has(c.key) && c.key !== "projectCode"
          ? "min-w-32 max-w-60 whitespace-normal"
          : undefined,
        hidden: HIDDEN_COLUMNS.has(c.key),
        cell: (r: ReportRow) => String(c.value(r) ?? ""),
      })),
    [kind],
  );
  const rowActions = useMemo<RowActionEntry<ReportRow>[] | undefined>(() =>
    kind === "prescreen"
      ? [{
        label: "Download answers",
        icon: Download,
        onSelect: async (r: ReportRow) => {
          const { blob, filename } = await download(prescreenReportCall, {
            body: { projectId: r.projectId },
          });
          saveBlob(blob, filename ?? `${r.projectCode}-prescreen.csv`);
        },
      }]
      : undefined, [kind]);
  const totals = useReportTotals(kind, list.body);
  const totalCells = useMemo(() => totalsCells(kind, totals.data), [kind, totals.data]);
  return (
    <>
      <FilterToolbar list={list} />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={rowActions}
        caption={`${REPORT_TITLES[kind]} report`}
        totals={totalCells}
      />
    </>
  );
}

export default function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab");
  const kind: ReportKind = isReportKind(tab) ? tab : "client";
  const select = (k: ReportKind) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set("tab", k);
      next.delete("page");
      return next;
    });
  return (
    <>
      <PageHeader
        title="Reports"
        description="Traffic, completes, revenue and expense for a range of days, by client, supplier and project."
      />
      <div role="tablist" aria-label="Reports" className="-mt-2 mb-4 flex gap-1 overflow-x-auto border-b">
        {REPORT_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === kind}
            onClick={() => select(k)}
            className={cn(
              "whitespace-nowrap rounded-t-md border-b-2 px-3 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
              k === kind
                ? "border-primary text-primary"
                : "border-transparent text-muted-foreground hover:border-border hover:text-foreground",
            )}
          >
            {REPORT_TITLES[k]}
          </button>
        ))}
      </div>
      <ReportTab key={kind} kind={kind} />
    </>
  );
}
