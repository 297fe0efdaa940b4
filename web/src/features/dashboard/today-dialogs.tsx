/** The Today Completed and Today Security dialogs (part 1, 2.3), with the spec's Sort by (Today, Last 7 Days, This Month). */
import { useState } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { type SortDate, todayCompletedCall, todaySecurityCall } from "../../../../shared/api/dashboard.ts";
import { api, callKey } from "../../lib/api.ts";
import { formatCount, formatMoney } from "../../lib/format.ts";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { Select } from "../../components/ui/select.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { StaticTable, TABLE_LOOKS, type TableLook } from "../../components/table/StaticTable.tsx";

const SORT_DATES = [
  { value: "1", label: "Today" },
  { value: "2", label: "Last 7 Days" },
  { value: "3", label: "This Month" },
];

function SortBy({ value, onChange }: { value: SortDate; onChange: (v: SortDate) => void }) {
  return (
    <Select
      ariaLabel="Sort by"
      className="h-8 w-36 text-xs"
      value={String(value)}
      onValueChange={(v) => onChange(Number(v) as SortDate)}
      options={SORT_DATES}
    />
  );
}

/** The figures look, its header kept in view while the rows scroll. */
const LOOK: TableLook = { ...TABLE_LOOKS.figures, header: "sticky top-0 bg-card" };

function State({ loading, error, empty }: { loading: boolean; error: boolean; empty: boolean }) {
  if (loading) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Loading" />
      </div>
    );
  }
  if (error) {
    return (
      <p role="alert" className="py-6 text-center text-sm text-muted-foreground">
        Could not load the projects.
      </p>
    );
  }
  if (empty) return <p className="py-6 text-center text-sm text-muted-foreground">No Rows</p>;
  return null;
}

const codeLink = (r: { parentProjectId: string; projectCode: string }) => (
  <Link
    className="font-medium text-primary underline-offset-2 hover:underline"
    to={`/admin/project/${r.parentProjectId}/childs`}
  >
    {r.projectCode}
  </Link>
);

export function TodayCompletedDialog(
  { open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void },
) {
  const [sortDate, setSortDate] = useState<SortDate>(1);
  const q = useQuery({
    queryKey: callKey(todayCompletedCall, sortDate),
    enabled: open,
    queryFn: async ({ signal }) => (await api(todayCompletedCall, { body: { sortDate } }, { signal })).result,
  });
  const rows = q.data ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader className="flex-row items-center justify-between gap-4 pr-8">
          <div>
            <DialogTitle>Today Completed</DialogTitle>
            <DialogDescription>Projects with completes, most first.</DialogDescription>
          </div>
          <SortBy value={sortDate} onChange={setSortDate} />
        </DialogHeader>
        <div className="max-h-[60vh] overflow-auto">
          <StaticTable
            data-testid="today-completed-table"
            look={LOOK}
            rows={rows}
            rowKey={(r) => r._id}
            columns={[
              { header: "Project Code", cell: codeLink },
              { header: "Name", cell: (r) => r.projectName },
              { header: "Complete", cell: (r) => formatCount(r.complete), numeric: true },
              { header: "CPI", cell: (r) => formatMoney(r.cpi), numeric: true },
              { header: "Expected Revenue", cell: (r) => formatMoney(r.expectedRevenue), numeric: true },
            ]}
          />
          <State loading={q.isPending} error={q.isError} empty={!!q.data && !rows.length} />
        </div>
      </DialogContent>
    </Dialog>
  );
}

export function TodaySecurityDialog(
  { open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void },
) {
  const [sortDate, setSortDate] = useState<SortDate>(1);
  const q = useQuery({
    queryKey: callKey(todaySecurityCall, sortDate),
    enabled: open,
    queryFn: async ({ signal }) => (await api(todaySecurityCall, { body: { sortDate } }, { signal })).result,
  });
  const rows = q.data ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader className="flex-row items-center justify-between gap-4 pr-8">
          <div>
            <DialogTitle>Today Security</DialogTitle>
            <DialogDescription>
              Projects whose respondents the security checks turned away (SCA: arrivals screened).
            </DialogDescription>
          </div>
          <SortBy value={sortDate} onChange={setSortDate} />
        </DialogHeader>
        <div className="max-h-[60vh] overflow-auto">
          <StaticTable
            data-testid="today-security-table"
            look={LOOK}
            rows={rows}
            rowKey={(r) => r._id}
            columns={[
              { header: "Code", cell: codeLink },
              { header: "Name", cell: (r) => r.projectName },
              { header: "SCA", cell: (r) => formatCount(r.sca), numeric: true },
              { header: "Security Terminate", cell: (r) => formatCount(r.security), numeric: true },
            ]}
          />
          <State loading={q.isPending} error={q.isError} empty={!!q.data && !rows.length} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
