/**
 * /supplier/project (titled Projects): the supplier dashboard, then the projects mapped to the
 * supplier with their entry links (one tap to copy), CPI, quota, live counts and status, and each
 * one's supplier report as a CSV. A grid on a laptop, cards on a phone.
 */
import { useMemo, useState } from "react";
import { Download } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import { formatCount, formatMoney } from "../../lib/format.ts";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { STATUS_TONES } from "../projects/index.ts";
import { projectStatusLabel } from "../../../../shared/status.ts";
import { supplierPortalReportCall } from "../../../../shared/api/portal.ts";
import { mappedDecl, pctText, type PortalProject } from "./portal.ts";
import { EntryLink, Figure, ResponsiveList, SortSelect } from "./parts.tsx";
import { SupplierDashboard } from "./SupplierDashboard.tsx";

const SORTS = [
  { value: "createdAt:desc", label: "Newest first" },
  { value: "projectCode:asc", label: "Project code" },
  { value: "projectName:asc", label: "Project name" },
  { value: "complete:desc", label: "Most completes" },
  { value: "clicked:desc", label: "Most clicks" },
  { value: "supplierCPI:desc", label: "Highest CPI" },
];

function Status({ p }: { p: PortalProject }) {
  return (
    <span className="flex flex-wrap gap-1">
      <Badge tone={STATUS_TONES[p.projectStatus] ?? "neutral"}>{projectStatusLabel(p.projectStatus)}</Badge>
      {p.allowTraffic && p.isBoarded ? null : <Badge tone="zinc">Traffic paused</Badge>}
    </span>
  );
}

function ReportButton({ p, compact }: { p: PortalProject; compact?: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size={compact ? "icon" : "sm"}
      disabled={busy}
      aria-label={`Download the report of ${p.projectCode}`}
      title="Download the report (CSV)"
      onClick={async () => {
        setBusy(true);
        try {
          const { blob, filename } = await download(supplierPortalReportCall, {
            body: { supplierMapId: p.supplierMapId, projectId: p.projectId },
          });
          saveBlob(blob, filename ?? `${p.projectCode}-report.csv`);
          notify.success("Report ready");
        } catch {
          // the API client has shown the reason
        } finally {
          setBusy(false);
        }
      }}
    >
      <Download />
      {compact ? null : "Report"}
    </Button>
  );
}

export default function SupplierProjectsPage() {
  const list = useList<PortalProject>(mappedDecl);

  const columns = useMemo<GridColumn<PortalProject>[]>(() => [
    {
      id: "project",
      header: "Project",
      sort: "projectCode",
      className: "min-w-44",
      cell: (p) => (
        <div className="flex flex-col">
          <span className="font-medium">{p.projectCode}</span>
          <span className="text-xs text-muted-foreground">{p.projectName}</span>
          {p.countryName ? <span className="text-xs text-muted-foreground">{p.countryName}</span> : null}
        </div>
      ),
    },
    {
      id: "redirectUrl",
      header: "Entry link",
      className: "min-w-64 max-w-80",
      cell: (p) => <EntryLink url={p.redirectUrl} label={`entry link of ${p.projectCode}`} />,
    },
    moneyColumn<PortalProject>("supplierCPI", "CPI", (p) => p.supplierCPI),
    {
      id: "supplierQuota",
      header: "Quota",
      align: "right",
      className: "tabular-nums",
      cell: (p) => (p.supplierQuota ? formatCount(p.supplierQuota) : "No limit"),
    },
    countColumn<PortalProject>("clicked", "Clicks", (p) => p.clicked),
    countColumn<PortalProject>("complete", "Completes", (p) => p.complete),
    // the outcomes besides completes are in the column chooser: Status and Report fit 1440 px
    { ...countColumn<PortalProject>("terminate", "Terminates", (p) => p.terminate), hidden: true },
    { ...countColumn<PortalProject>("overQuota", "Over quota", (p) => p.overQuota), hidden: true },
    { ...countColumn<PortalProject>("qualityTerm", "Quality", (p) => p.qualityTerm), hidden: true },
    { ...countColumn<PortalProject>("drop", "Drops", (p) => p.drop), hidden: true },
    {
      id: "conversion",
      header: "Conversion",
      align: "right",
      className: "tabular-nums",
      cell: (p) => pctText(p.conversion),
    },
    { id: "status", header: "Status", cell: (p) => <Status p={p} /> },
    { id: "report", header: "Report", cell: (p) => <ReportButton p={p} compact /> },
  ], []);

  const card = (p: PortalProject) => (
    <div className="flex flex-col gap-3">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{p.projectCode}</p>
          <p className="truncate text-sm text-muted-foreground">{p.projectName}</p>
        </div>
        <Status p={p} />
      </div>
      <EntryLink url={p.redirectUrl} label={`entry link of ${p.projectCode}`} />
      <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
        <Figure label="CPI" value={formatMoney(p.supplierCPI)} />
        <Figure label="Quota" value={p.supplierQuota ? formatCount(p.supplierQuota) : "No limit"} />
        <Figure label="Conversion" value={pctText(p.conversion)} />
        <Figure label="Clicks" value={formatCount(p.clicked)} />
        <Figure label="Completes" value={formatCount(p.complete)} />
        <Figure label="Terminates" value={formatCount(p.terminate)} />
        <Figure label="Over quota" value={formatCount(p.overQuota)} />
        <Figure label="Quality" value={formatCount(p.qualityTerm)} />
        <Figure label="Drops" value={formatCount(p.drop)} />
      </dl>
      <ReportButton p={p} />
    </div>
  );

  return (
    <>
      <PageHeader
        title="Projects"
        description="Your projects: entry links to send respondents to, and how each is doing."
      />
      <SupplierDashboard />
      <FilterToolbar list={list} actions={<SortSelect list={list} choices={SORTS} />} />
      <ResponsiveList list={list} columns={columns} card={card} caption="Your projects" />
    </>
  );
}
