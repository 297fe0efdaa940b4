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

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground";
const td = "px-3 py-2";

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
          <table className="w-full text-sm" data-testid="today-completed-table">
            <thead className="sticky top-0 bg-card">
              <tr className="border-b">
                <th className={th}>Project Code</th>
                <th className={th}>Name</th>
                <th className={`${th} text-right`}>Complete</th>
                <th className={`${th} text-right`}>CPI</th>
                <th className={`${th} text-right`}>Expected Revenue</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r._id} className="border-b last:border-0">
                  <td className={td}>{codeLink(r)}</td>
                  <td className={td}>{r.projectName}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatCount(r.complete)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatMoney(r.cpi)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatMoney(r.expectedRevenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
          <table className="w-full text-sm" data-testid="today-security-table">
            <thead className="sticky top-0 bg-card">
              <tr className="border-b">
                <th className={th}>Code</th>
                <th className={th}>Name</th>
                <th className={`${th} text-right`}>SCA</th>
                <th className={`${th} text-right`}>Security Terminate</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r._id} className="border-b last:border-0">
                  <td className={td}>{codeLink(r)}</td>
                  <td className={td}>{r.projectName}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatCount(r.sca)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatCount(r.security)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <State loading={q.isPending} error={q.isError} empty={!!q.data && !rows.length} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
