/**
 * /admin/dashboard (part 1, 2.3): the Search Project box, the cards (Today Completed and Today
 * Security open their dialogs), the project-manager table and the charts. Today's figures and the
 * traffic chart's today move with the live stream (./live.ts).
 */
import { useState } from "react";
import { useNavigate } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { Activity, CircleCheck, Search, ShieldAlert } from "lucide-react";
import { canOpenScreen } from "../../../../shared/permissions.ts";
import { ROLE_LABELS } from "../../../../shared/roles.ts";
import {
  type DashboardBox,
  dashboardBoxCall,
  dashboardManagersCall,
  type LiveUpdate,
} from "../../../../shared/api/dashboard.ts";
import { dashboardRoutedCall, type RoutedFigures } from "../../../../shared/api/routing.ts";
import { useAuth } from "../../lib/auth.ts";
import { api, callKey } from "../../lib/api.ts";
import { formatMoney, formatShort } from "../../lib/format.ts";
import { Input } from "../../components/ui/input.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { StaticTable, TABLE_LOOKS } from "../../components/table/StaticTable.tsx";
import { type LiveMode, useDashboardLive } from "./live.ts";
import { DashboardCharts } from "./charts.tsx";
import { TodayCompletedDialog, TodaySecurityDialog } from "./today-dialogs.tsx";

function greeting(now = new Date()) {
  const h = now.getHours();
  return h < 12 ? "Good morning" : h < 18 ? "Good afternoon" : "Good evening";
}

/** The cards with today's figures from the live stream when it is newer (totals move by the same amount). */
function withLive(box: DashboardBox | undefined, live: LiveUpdate | null): DashboardBox | undefined {
  if (!box || !live) return box;
  const delta = live.todayCompleted - box.todayCompleted;
  return {
    ...box,
    todayCompleted: live.todayCompleted,
    todaySecurityDrop: live.todaySecurityDrop,
    totalCompleted: box.totalCompleted + delta,
    monthCompleted: box.monthCompleted + delta,
  };
}

type CardDef = { key: keyof DashboardBox; label: string; money?: boolean };
const CARDS: CardDef[] = [
  { key: "totalCompleted", label: "Total Completed" },
  { key: "monthCompleted", label: "Monthly Completed" },
  { key: "totalProjects", label: "Total Projects" },
  { key: "monthlyRevenue", label: "Monthly Revenue", money: true },
  { key: "monthlyExpense", label: "Monthly Expense", money: true },
  { key: "monthlyInvoice", label: "Monthly Invoice", money: true },
  { key: "revenueClosedInvoice", label: "Monthly Projects Cost", money: true },
  { key: "monthlyInvoiceCost", label: "Monthly Invoice Cost", money: true },
];

/** Routed traffic (routing chains' later hops), shown apart from the cards above. */
const ROUTED_CARDS: { key: keyof RoutedFigures; label: string; money?: boolean }[] = [
  { key: "monthRoutedEntries", label: "Monthly Routed Entries" },
  { key: "monthRoutedCompleted", label: "Monthly Routed Completes" },
  { key: "monthRoutedRevenue", label: "Monthly Routed Revenue", money: true },
];

function RoutedSection() {
  const q = useQuery({
    queryKey: callKey(dashboardRoutedCall),
    queryFn: async ({ signal }) => (await api(dashboardRoutedCall, undefined, { signal })).result,
  });
  const r = q.data;
  return (
    <section aria-label="Routed traffic" className="grid gap-4 sm:grid-cols-3">
      {q.isError && !r
        ? (
          <div role="alert" className="flex items-center gap-3 rounded-xl border p-4 text-sm sm:col-span-3">
            The routed figures could not be loaded.
            <Button variant="outline" size="sm" onClick={() => q.refetch()}>Try again</Button>
          </div>
        )
        : ROUTED_CARDS.map((c) => (
          <Figure
            key={c.key}
            testId={`card-${c.key}`}
            label={c.label}
            value={r ? (c.money ? formatMoney(r[c.key]) : formatShort(r[c.key])) : null}
          />
        ))}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  return (
    <Card className="flex flex-col gap-1 p-4" data-testid={testId}>
      <span className="text-sm text-muted-foreground">{label}</span>
      {value === null
        ? <Skeleton className="h-7 w-24" />
        : <span className="text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`}>{value}
        </span>}
    </Card>
  );
}

function TodayCard({ label, value, icon: Icon, onOpen, testId }: {
  label: string;
  value: number | null;
  icon: typeof CircleCheck;
  onOpen: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid={testId}
      aria-haspopup="dialog"
      className="flex items-center gap-3 rounded-xl border bg-card p-4 text-left shadow-xs transition hover:border-primary/40 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <span className="flex flex-col">
        <span className="text-sm text-muted-foreground">{label}</span>
        {value === null
          ? <Skeleton className="h-7 w-16" />
          : (
            <span className="text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
              {formatShort(value)}
            </span>
          )}
      </span>
    </button>
  );
}

function LiveBadge({ mode }: { mode: LiveMode }) {
  const text = mode === "live" ? "Live" : mode === "polling" ? "Updating every 5 s" : "Connecting…";
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-muted-foreground"
      data-testid="live-mode"
      data-mode={mode}
    >
      <Activity className={mode === "live" ? "size-3.5 text-emerald-600" : "size-3.5"} aria-hidden="true" />
      {text}
    </span>
  );
}

function ManagerTable() {
  const q = useQuery({
    queryKey: callKey(dashboardManagersCall),
    queryFn: async ({ signal }) => (await api(dashboardManagersCall, undefined, { signal })).result,
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Project Managers</CardTitle>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        {q.isPending
          ? <Skeleton className="h-24 w-full" />
          : q.isError
          ? <p role="alert" className="text-sm text-muted-foreground">Could not load the managers.</p>
          : !q.data.length
          ? <p className="text-sm text-muted-foreground">No Rows</p>
          : (
            <StaticTable
              data-testid="manager-table"
              look={TABLE_LOOKS.figures}
              rows={q.data}
              rowKey={(r) => r.userId ?? "none"}
              columns={[
                { header: "User", cell: (r) => r.name, className: "font-medium" },
                { header: "Live", cell: (r) => formatShort(r.live), numeric: true },
                { header: "Paused", cell: (r) => formatShort(r.paused), numeric: true },
                { header: "Closed", cell: (r) => formatShort(r.closed), numeric: true },
                { header: "Invoiced", cell: (r) => formatShort(r.invoiced), numeric: true },
                { header: "Total", cell: (r) => formatShort(r.total), numeric: true },
                { header: "Active", cell: (r) => formatShort(r.active), numeric: true },
              ]}
            />
          )}
      </CardContent>
    </Card>
  );
}

export default function DashboardPage() {
  const admin = useAuth((s) => s.admin)!;
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const [dialog, setDialog] = useState<"completed" | "security" | null>(null);
  const canSearchProjects = canOpenScreen(admin.role, "/admin/project");
  const { update: live, mode } = useDashboardLive();
  const q = useQuery({
    queryKey: callKey(dashboardBoxCall),
    queryFn: async ({ signal }) => (await api(dashboardBoxCall, undefined, { signal })).result,
  });
  const box = withLive(q.data, live);
  const show = (c: CardDef) => (box ? (c.money ? formatMoney(box[c.key]) : formatShort(box[c.key])) : null);

  return (
    <div className="flex flex-col gap-6">
      <section className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <p className="text-sm text-muted-foreground">{greeting()},</p>
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="welcome">
            Welcome, {admin.fullName}
          </h1>
          <div className="flex items-center gap-2 text-muted-foreground">
            <Badge tone="primary">{ROLE_LABELS[admin.role]}</Badge>
            <span>{admin.email}</span>
            <LiveBadge mode={mode} />
          </div>
        </div>
        {canSearchProjects
          ? (
            <form
              role="search"
              className="flex w-full max-w-sm gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                const q = search.trim();
                navigate(q ? `/admin/project?q=${encodeURIComponent(q)}` : "/admin/project");
              }}
            >
              <div className="relative flex-1">
                <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
                <Input
                  aria-label="Search Project"
                  placeholder="Search Project"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  className="pl-9"
                />
              </div>
              <Button type="submit" variant="outline">Search</Button>
            </form>
          )
          : null}
      </section>

      {q.isError && !box
        ? (
          <div role="alert" className="flex items-center gap-3 rounded-xl border p-4 text-sm">
            The figures could not be loaded.
            <Button variant="outline" size="sm" onClick={() => q.refetch()}>Try again</Button>
          </div>
        )
        : null}

      <section aria-label="Today" className="grid gap-4 sm:grid-cols-2">
        <TodayCard
          testId="card-today-completed"
          label="Today Completed"
          value={box ? box.todayCompleted : null}
          icon={CircleCheck}
          onOpen={() => setDialog("completed")}
        />
        <TodayCard
          testId="card-today-security"
          label="Today Security"
          value={box ? box.todaySecurityDrop : null}
          icon={ShieldAlert}
          onOpen={() => setDialog("security")}
        />
      </section>

      <section aria-label="Figures" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {CARDS.map((c) => <Figure key={c.key} testId={`card-${c.key}`} label={c.label} value={show(c)} />)}
      </section>
      <RoutedSection />

      <ManagerTable />
      <DashboardCharts live={live} />

      <TodayCompletedDialog
        open={dialog === "completed"}
        onOpenChange={(o) => setDialog(o ? "completed" : null)}
      />
      <TodaySecurityDialog
        open={dialog === "security"}
        onOpenChange={(o) => setDialog(o ? "security" : null)}
      />
    </div>
  );
}
