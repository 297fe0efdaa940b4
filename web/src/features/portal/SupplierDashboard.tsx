/**
 * The supplier dashboard at the top of the portal: this month's completes, conversion and earnings,
 * and the last 30 days of traffic (uPlot), the staff dashboard's figures scoped to the supplier.
 */
import { useQuery } from "@tanstack/react-query";
import { api, callKey } from "../../lib/api.ts";
import { formatCount, formatMoney, isoDayToDisplay } from "../../lib/format.ts";
import { BarChart, type BarSeries } from "../../components/charts/BarChart.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { supplierDashboardCall } from "../../../../shared/api/portal.ts";
import { pctText, type SupplierDashboard as Figures } from "./portal.ts";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const monthName = (key: string) => `${MONTHS[Number(key.slice(5, 7)) - 1]} ${key.slice(0, 4)}`;
const dayLabel = (k: string) => isoDayToDisplay(k).slice(0, 5);

export const dashboardKey = callKey(supplierDashboardCall);

export function SupplierDashboard() {
  const q = useQuery({
    queryKey: dashboardKey,
    queryFn: async ({ signal }) => (await api(supplierDashboardCall, {}, { signal })).result,
    refetchInterval: 60_000,
  });
  const d = q.data;
  return (
    <section aria-label="Your figures" className="mb-6 flex flex-col gap-4" data-testid="supplier-dashboard">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile
          label="Completes"
          sub={d ? monthName(d.month) : "This month"}
          value={d && formatCount(d.monthCompleted)}
          testId="tile-completes"
        />
        <Tile
          label="Conversion"
          sub={d ? `${formatCount(d.monthTraffic)} clicks` : "Completes per click"}
          value={d && pctText(d.conversion)}
          testId="tile-conversion"
        />
        <Tile
          label="Earnings"
          sub={d ? `${formatCount(d.approved)} approved completes` : "Approved x CPI"}
          value={d && formatMoney(d.earnings)}
          testId="tile-earnings"
        />
        <Tile
          label="Expected"
          sub="Completes x CPI, before reconcile"
          value={d && formatMoney(d.expectedEarnings)}
          testId="tile-expected"
        />
      </div>
      <Card>
        <CardHeader className="pb-2">
          <CardTitle className="text-base">Traffic, last 30 days</CardTitle>
        </CardHeader>
        <CardContent>{d ? <TrafficChart d={d} /> : <Skeleton className="h-60 w-full" />}</CardContent>
      </Card>
    </section>
  );
}

function Tile(
  { label, sub, value, testId }: { label: string; sub: string; value: string | undefined; testId: string },
) {
  return (
    <Card className="flex flex-col gap-1 p-4" data-testid={testId}>
      <p className="text-sm text-muted-foreground">{label}</p>
      {value === undefined
        ? <Skeleton className="h-7 w-20" />
        : <p className="text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`}>{value}</p>}
      <p className="truncate text-xs text-muted-foreground">{sub}</p>
    </Card>
  );
}

function TrafficChart({ d }: { d: Figures }) {
  const labels = d.traffic.map((p) => p.date);
  const series: BarSeries[] = [
    { label: "Clicks", color: "#2563eb", values: d.traffic.map((p) => p.traffic) },
    { label: "Completes", color: "#16a34a", values: d.traffic.map((p) => p.complete) },
    { label: "Not complete", color: "#f59e0b", values: d.traffic.map((p) => p.failed) },
  ];
  return (
    <BarChart title="Traffic, last 30 days" labels={labels} series={series} formatLabel={dayLabel} integer />
  );
}
