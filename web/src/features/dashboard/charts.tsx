/** The dashboard's charts (part 1, 2.3): each with its Daily/Monthly/Yearly selector and its client or supplier filter. */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AnyContract, ResultOf } from "../../../../shared/api/contract.ts";
import {
  CHART_PERIODS,
  type ChartPeriod,
  expenseChartCall,
  invoiceChartCall,
  type LiveUpdate,
  revenueChartCall,
  revenueExpenseChartCall,
  securityChartCall,
  statusChartCall,
  trafficChartCall,
} from "../../../../shared/api/dashboard.ts";
import { api, callKey } from "../../lib/api.ts";
import { formatMoney, formatShort, isoDayToDisplay } from "../../lib/format.ts";
import { BarChart, type BarSeries, type ValueAxis } from "../../components/charts/BarChart.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Select } from "../../components/ui/select.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { Button } from "../../components/ui/button.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { CLIENTS, SUPPLIERS } from "../../lib/lookups.ts";
import { cn } from "../../lib/utils.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** A bucket's label: dd/MM for a day (dd/MM/yyyy in the legend), MMM yyyy for a month, yyyy for a year. */
const shortLabel = (k: string) =>
  k.length === 10
    ? isoDayToDisplay(k).slice(0, 5)
    : k.length === 7
    ? `${MONTHS[Number(k.slice(5)) - 1]} ${k.slice(2, 4)}`
    : k;
const money = (n: number) => formatMoney(n);
const short = (n: number) => formatShort(n);
/** An axis of counts: whole numbers. */
const COUNT_AXIS: ValueAxis = { format: short, integer: true };

const COLORS = [
  "#2563eb",
  "#16a34a",
  "#f59e0b",
  "#dc2626",
  "#7c3aed",
  "#0891b2",
  "#db2777",
  "#65a30d",
  "#475569",
  "#ea580c",
];

type Field<T> = {
  key: Exclude<keyof T & string, "date">;
  label: string;
  /** Read on the chart's right axis (a second unit, e.g. a count beside an amount). */
  axis?: "right";
};
/** A chart call's point type. */
type PointOf<C> = ResultOf<C> extends (infer R extends { date: string })[] ? R : never;
type Filters = { client?: boolean; supplier?: boolean };

function PeriodSwitch(
  { value, onChange, title }: { value: ChartPeriod; onChange: (p: ChartPeriod) => void; title: string },
) {
  return (
    <div role="group" aria-label={`${title} period`} className="inline-flex rounded-md border p-0.5">
      {CHART_PERIODS.map((p) => (
        <button
          key={p.value}
          type="button"
          aria-pressed={value === p.value}
          onClick={() => onChange(p.value)}
          className={cn(
            "rounded px-2.5 py-1 text-xs font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
            value === p.value
              ? "bg-primary text-primary-foreground"
              : "text-muted-foreground hover:bg-accent",
          )}
        >
          {p.label}
        </button>
      ))}
    </div>
  );
}

function FilterSelect({ kind, value, onChange, title }: {
  kind: "client" | "supplier";
  value: string;
  onChange: (v: string) => void;
  title: string;
}) {
  const { options } = useOptions(kind === "client" ? CLIENTS : SUPPLIERS);
  const all = kind === "client" ? "All clients" : "All suppliers";
  return (
    <Select
      ariaLabel={`${title} ${kind}`}
      className="h-8 w-40 text-xs"
      value={value}
      placeholder={all}
      onValueChange={(v) => onChange(v === "all" ? "" : v)}
      options={[{ value: "all", label: all }, ...options]}
    />
  );
}

/** A chart card: title, period, filters, the chart with its loading, empty and error states. */
function ChartCard<C extends AnyContract, T extends PointOf<C> = PointOf<C>>({
  title,
  call,
  fields,
  filters = {},
  valueFormat = short,
  integer,
  right,
  patch,
  testId,
}: {
  title: string;
  call: C;
  fields: Field<T>[];
  filters?: Filters;
  valueFormat?: (n: number) => string;
  /** The left axis counts (whole-number ticks). */
  integer?: boolean;
  /** The right axis, for fields with `axis: "right"`. */
  right?: ValueAxis;
  /** Adjusts the answer before it is drawn (the live traffic point). */
  patch?: (rows: T[], input: { type: ChartPeriod; clientId: string; supplierId: string }) => T[];
  testId: string;
}) {
  const [type, setType] = useState<ChartPeriod>(1);
  const [clientId, setClientId] = useState("");
  const [supplierId, setSupplierId] = useState("");
  const body = { type, clientId: clientId || null, supplierId: supplierId || null };
  const q = useQuery({
    queryKey: callKey(call, body),
    queryFn: async ({ signal }) =>
      (await api(call as AnyContract, { body } as never, { signal })).result as T[],
    placeholderData: (prev) => prev,
  });
  const rows = useMemo(
    () => (q.data && patch ? patch(q.data, { type, clientId, supplierId }) : q.data),
    [q.data, patch, type, clientId, supplierId],
  );
  const { labels, series } = useMemo(() => {
    const labels = (rows ?? []).map((r) => r.date);
    const series: BarSeries[] = fields.map((f, i) => ({
      label: f.label,
      color: COLORS[i % COLORS.length],
      values: (rows ?? []).map((r) => Number(r[f.key] ?? 0)),
      axis: f.axis,
    }));
    return { labels, series };
  }, [rows, fields]);
  const empty = !!rows && series.every((s) => s.values.every((v) => !v));
  const legendLabel = (k: string) => (k.length === 10 ? isoDayToDisplay(k) : shortLabel(k));

  return (
    <Card data-testid={testId} aria-busy={q.isFetching || undefined}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>{title}</CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          {filters.client
            ? <FilterSelect kind="client" value={clientId} onChange={setClientId} title={title} />
            : null}
          {filters.supplier
            ? <FilterSelect kind="supplier" value={supplierId} onChange={setSupplierId} title={title} />
            : null}
          <PeriodSwitch value={type} onChange={setType} title={title} />
        </div>
      </CardHeader>
      <CardContent>
        {q.isError && !rows
          ? (
            <div
              role="alert"
              className="flex h-60 flex-col items-center justify-center gap-2 text-sm text-muted-foreground"
            >
              Could not load this chart.
              <Button variant="outline" size="sm" onClick={() => q.refetch()}>Try again</Button>
            </div>
          )
          : !rows
          ? <Skeleton className="h-60 w-full" />
          : (
            <div className="relative">
              <BarChart
                title={title}
                labels={labels}
                series={series}
                formatValue={valueFormat}
                integer={integer}
                right={right}
                formatLabel={shortLabel}
                key={type}
              />
              {empty
                ? (
                  <p className="pointer-events-none absolute inset-x-0 top-20 text-center text-sm text-muted-foreground">
                    Nothing in this period{clientId || supplierId ? " for this filter" : ""}.
                  </p>
                )
                : null}
              <span className="sr-only">
                {labels.length
                  ? `${legendLabel(labels[0])} to ${legendLabel(labels[labels.length - 1])}`
                  : ""}
              </span>
            </div>
          )}
      </CardContent>
    </Card>
  );
}

type TrafficRow = ResultOf<typeof trafficChartCall>[number];

export function DashboardCharts({ live }: { live: LiveUpdate | null }) {
  // today's point of the unfiltered Daily traffic chart moves with the live figures
  const patchTraffic = useMemo(
    () => (rows: TrafficRow[], input: { type: ChartPeriod; clientId: string; supplierId: string }) => {
      if (!live || input.type !== 1 || input.clientId || input.supplierId) return rows;
      const i = rows.findIndex((r) => r.date === live.date);
      return i < 0 ? rows : rows.map((r, j) => (j === i ? live.traffic : r));
    },
    [live],
  );
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <ChartCard
        testId="chart-status"
        integer
        title="Project Status"
        call={statusChartCall}
        filters={{ client: true }}
        fields={[
          { key: "active", label: "New projects" },
          { key: "paused", label: "Paused" },
          { key: "closed", label: "Closed" },
          { key: "invoiced", label: "Invoiced" },
        ]}
      />
      <ChartCard
        testId="chart-revenue"
        title="Project Revenue"
        call={revenueChartCall}
        filters={{ client: true }}
        valueFormat={money}
        fields={[{ key: "expected", label: "Expected" }, { key: "actual", label: "Actual" }]}
      />
      <ChartCard
        testId="chart-expense"
        title="Project Expense"
        call={expenseChartCall}
        filters={{ supplier: true }}
        valueFormat={money}
        fields={[{ key: "expected", label: "Expected" }, { key: "actual", label: "Actual" }]}
      />
      <ChartCard
        testId="chart-traffic"
        integer
        title="Project Traffic"
        call={trafficChartCall}
        filters={{ client: true, supplier: true }}
        patch={patchTraffic}
        fields={[
          { key: "traffic", label: "Traffic" },
          { key: "complete", label: "Complete" },
          { key: "approved", label: "Approved" },
          { key: "failed", label: "Failed" },
        ]}
      />
      <ChartCard
        testId="chart-security"
        integer
        title="Project Security"
        call={securityChartCall}
        filters={{ client: true, supplier: true }}
        fields={[
          { key: "traffic", label: "Traffic" },
          { key: "ipAddress", label: "IP Address" },
          { key: "geoLocation", label: "Geo Location" },
          { key: "deviceStudy", label: "Device Study" },
          { key: "vpn", label: "VPN" },
          { key: "preScreenDropout", label: "Prescreen Dropped" },
          { key: "qualityTerm", label: "Quality Terminate" },
          { key: "completeAllocated", label: "Complete Allocated" },
          { key: "rd", label: "RD" },
        ]}
      />
      <ChartCard
        testId="chart-revenue-expense"
        title="Daily Revenue/Expense"
        call={revenueExpenseChartCall}
        valueFormat={money}
        fields={[{ key: "revenue", label: "Revenue" }, { key: "expense", label: "Expense" }]}
      />
      <ChartCard
        testId="chart-invoice"
        title="Project Invoice"
        call={invoiceChartCall}
        filters={{ client: true }}
        valueFormat={money}
        right={COUNT_AXIS}
        fields={[{ key: "total", label: "Amount" }, { key: "count", label: "Count", axis: "right" }]}
      />
    </div>
  );
}
