/**
 * /admin/report (part 2, Reports): six tabs (Client, Supplier, Prescreen, Complete Allocated,
 * Complete, Project Complete) over the router's figures for a range of days, with client and
 * supplier filters, on the shared grid; Export downloads every matching row as CSV, in the grid's
 * columns. The Prescreen tab also downloads a project's pre-screen answers.
 */
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { Download } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowActionEntry } from "../../components/data-grid/types.ts";
import { download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { cn } from "../../lib/utils.ts";
import { prescreenReportCall } from "../../../../shared/api/project-reports.ts";
import { REPORT_LISTS } from "../../../../shared/api/reports.ts";
import {
  isReportKind,
  REPORT_KINDS,
  REPORT_TITLES,
  reportGrid,
  type ReportKind,
  type ReportRow,
} from "./reports.ts";

const TEXT_COLUMNS = new Set(["projectCode", "projectName", "clientName", "supplierName"]);

function ReportTab({ kind }: { kind: ReportKind }) {
  const grid = useMemo(() => reportGrid(kind), [kind]);
  const list = useList(grid);
  // the grid shows exactly the CSV's columns and cells
  const columns = useMemo<GridColumn<ReportRow>[]>(
    () =>
      REPORT_LISTS[kind].columns.map((c) => ({
        id: c.key,
        header: c.header,
        align: TEXT_COLUMNS.has(c.key) ? "left" : "right",
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
  return (
    <>
      <FilterToolbar list={list} />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={rowActions}
        caption={`${REPORT_TITLES[kind]} report`}
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
