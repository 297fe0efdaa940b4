/**
 * Security stats (part 1, 2.6): why the project's respondents were stopped, by reason (duplicate,
 * IP address, geo location, device, proxy/VPN, RD, speeder, quality terminate, exclusions,
 * prescreen), in total and per child project and supplier, from the project's own sessions
 * (POST /admin/project/security/stat/:projectId); and which checks each child has on.
 */
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { type SecurityRow, securityStatsCall } from "../../../../shared/api/project-reports.ts";
import { formatCount, formatDateTime } from "../../lib/format.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { SECURITY_REASONS } from "../../../../shared/status.ts";
import type { ProjectRow } from "./projects.ts";
import { EmptyState, ErrorState, LoadingRows } from "../../components/display/states.tsx";
import { pct, subtitle } from "./parts.tsx";
import { StaticTable } from "../../components/table/StaticTable.tsx";
import { ViewDialog } from "../../components/dialogs/ViewDialog.tsx";

const rate = (part: number, whole: number) => pct(whole ? Math.round((part / whole) * 1000) / 10 : null);

export function SecurityStatsDialog(
  { project, onClose }: { project: ProjectRow | null; onClose: () => void },
) {
  return (
    <ViewDialog
      row={project}
      onClose={onClose}
      className="max-w-5xl"
      title="Security stats"
      description={(project) =>
        `${
          subtitle(project)
        }: respondents stopped by the security checks, by reason, and which checks are on.`}
    >
      {(project) => <SecurityStats project={project} />}
    </ViewDialog>
  );
}

function SecurityStats({ project }: { project: ProjectRow }) {
  const stats = useQuery({
    queryKey: ["security-stats", project._id],
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api(securityStatsCall, { params: { projectId: project._id } }, { signal })).result,
  });
  const s = stats.data;
  return (
    <>
      {stats.isPending
        ? <LoadingRows label="Loading security stats" rows={4} />
        : stats.isError
        ? <ErrorState what="security stats" error={stats.error} onRetry={() => void stats.refetch()} />
        : !s || s.rows.length === 0
        ? <EmptyState text="No suppliers mapped yet" />
        : (
          <div className="flex flex-col gap-4">
            <dl
              className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7"
              aria-label="Security totals"
              data-testid="security-totals"
            >
              <Tile label="Clicked" value={formatCount(s.total.clicked)} />
              <Tile
                label="Security"
                value={formatCount(s.total.security)}
                note={`${rate(s.total.security, s.total.clicked)} of clicks`}
                strong
              />
              {SECURITY_REASONS.map((r) => (
                <Tile key={r.key} label={r.label} value={formatCount(s.total[r.key])} title={r.hint} />
              ))}
            </dl>
            {s.clientLinks.failures > 0
              ? (
                <div
                  role="status"
                  data-testid="client-link-failures"
                  className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
                >
                  <p className="font-medium">
                    Client link failures: {formatCount(s.clientLinks.failures)}
                  </p>
                  <p>
                    The client's API gave these respondents no survey link; they were sent to Survey Close.
                    Last error{s.clientLinks.lastAt ? ` (${formatDateTime(s.clientLinks.lastAt)})` : ""}:{" "}
                    <span className="break-all font-mono text-xs">{s.clientLinks.lastError}</span>
                  </p>
                </div>
              )
              : null}
            <StaticTable
              caption="Security per child project and supplier"
              rows={s.rows}
              rowKey={(r) => `${r.projectId}-${r.supplierId}`}
              columns={[
                { header: "Project", cell: (r) => r.projectCode, className: "whitespace-nowrap font-medium" },
                { header: "Supplier", cell: (r) => r.supplierName, className: "whitespace-nowrap" },
                {
                  header: "Clicks",
                  cell: (r) => formatCount(r.clicked),
                  numeric: true,
                },
                {
                  header: "Security",
                  cell: (r) => formatCount(r.security),
                  numeric: true,
                  className: "font-medium",
                },
                ...SECURITY_REASONS.map((x) => ({
                  header: <abbr title={`${x.label}: ${x.hint}`} className="no-underline">{x.short}</abbr>,
                  cell: (r: SecurityRow) => formatCount(r[x.key]),
                  numeric: true,
                  headerClassName: "px-2!",
                  className: "px-2!",
                })),
                {
                  header: "Rate",
                  cell: (r) => rate(r.security, r.clicked),
                  numeric: true,
                },
              ]}
            />
            <div className="flex flex-col gap-2">
              <h3 className="text-sm font-medium">Checks on</h3>
              <ul className="flex flex-col gap-1.5">
                {s.checks.map((c) => (
                  <li key={c.projectId} className="flex flex-wrap items-center gap-1.5 text-sm">
                    <span className="mr-1 font-medium">{c.projectCode}</span>
                    {c.checks.length
                      ? c.checks.map((k) => <Badge key={k} tone="slate">{k}</Badge>)
                      : <span className="text-muted-foreground">No checks</span>}
                    <span className="text-muted-foreground">· devices: {c.devices.join(", ") || "none"}</span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        )}
    </>
  );
}

function Tile(
  { label, value, note, title, strong }: {
    label: string;
    value: string;
    note?: string;
    title?: string;
    strong?: boolean;
  },
) {
  return (
    <div className="flex flex-col rounded-lg border px-3 py-2" title={title}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={strong ? "text-lg font-semibold tabular-nums" : "text-lg tabular-nums"}>{value}</dd>
      {note ? <dd className="text-xs text-muted-foreground">{note}</dd> : null}
    </div>
  );
}
