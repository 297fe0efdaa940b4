/** Columns the group and child grids share: outcomes, CPI, field stats, redirects, status. */
import { Link2 } from "lucide-react";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { Button } from "../../components/ui/button.tsx";
import { formatCount, formatMoney } from "../../lib/format.ts";
import { cn } from "../../lib/utils.ts";
import { countColumn } from "../../components/data-grid/columns.tsx";
import { conversion, incidence, type ProjectRow } from "./projects.ts";
import { pct } from "./parts.tsx";

/** Complete versus sample size, with a thin progress bar. */
export const completeColumn: GridColumn<ProjectRow> = {
  id: "complete",
  header: "Complete / Sample",
  headerClassName: "whitespace-normal leading-tight min-w-20 px-3",
  className: "px-3",
  cell: (p) => {
    const share = p.sampleSize > 0 ? Math.min(1, p.complete / p.sampleSize) : 0;
    return (
      <div className="flex min-w-20 flex-col gap-1">
        <span className="tabular-nums">
          <span className="font-medium">{formatCount(p.complete)}</span>
          <span className="text-muted-foreground">&nbsp;/ {formatCount(p.sampleSize)}</span>
        </span>
        {(p.held ?? 0) > 0 || (p.pastLimit ?? 0) > 0
          ? (
            <span className="text-xs tabular-nums">
              {(p.held ?? 0) > 0 && (
                <span title="Respondents in the client survey now, held against the limits">
                  {formatCount(p.held)} in survey
                </span>
              )}
              {(p.held ?? 0) > 0 && (p.pastLimit ?? 0) > 0 && " · "}
              {(p.pastLimit ?? 0) > 0 && (
                <span
                  className="text-amber-800"
                  title="Completes accepted past a limit (sample size, supplier quota or a quota cell) under a hold"
                >
                  {formatCount(p.pastLimit)} past limit
                </span>
              )}
            </span>
          )
          : null}
        <span className="h-1 w-full overflow-hidden rounded-full bg-muted" aria-hidden="true">
          <span
            className={cn("block h-full rounded-full", share >= 1 ? "bg-amber-500" : "bg-primary")}
            style={{ width: `${share * 100}%` }}
          />
        </span>
      </div>
    );
  },
};

const abbr = (short: string, long: string) => <abbr title={long} className="no-underline">{short}</abbr>;

/** A count column with tighter padding: the project grids have many of them side by side. */
function compact(col: GridColumn<ProjectRow>): GridColumn<ProjectRow> {
  return {
    ...col,
    className: cn(col.className, "px-2"),
    headerClassName: cn(col.headerClassName, "px-2 min-w-10"),
  };
}

export const outcomeColumns: GridColumn<ProjectRow>[] = [
  countColumn<ProjectRow>("terminate", abbr("ST", "Terminate"), (p) => p.terminate),
  countColumn<ProjectRow>("overQuota", abbr("OQ", "Over quota"), (p) => p.overQuota),
  countColumn<ProjectRow>("qualityTerm", abbr("QT", "Quality term"), (p) => p.qualityTerm),
  countColumn<ProjectRow>("drop", abbr("DO", "Drop"), (p) => p.drop),
  countColumn<ProjectRow>("security", "Security", (p) => p.totalDisqualified ?? p.security),
  countColumn<ProjectRow>("clicked", "Clicked", (p) => p.clicked),
].map(compact);

export const cpiColumn: GridColumn<ProjectRow> = {
  id: "cpi",
  header: "CPI",
  align: "right",
  headerClassName: "px-2",
  className: "tabular-nums whitespace-nowrap px-2",
  cell: (p) => formatMoney(p.cpi),
};

/** Incidence (completes over completes and terminates) and conversion (completes over clicks). */
export const fieldStatsColumn: GridColumn<ProjectRow> = {
  id: "fieldStats",
  header: "Field stats",
  headerClassName: "whitespace-normal leading-tight px-2",
  className: "px-2",
  cell: (p) => (
    <dl className="grid grid-cols-[auto_auto] gap-x-2 text-xs tabular-nums">
      <dt className="text-muted-foreground" title="Incidence: completes over completes and terminates">IR</dt>
      <dd>{pct(incidence(p))}</dd>
      <dt className="text-muted-foreground" title="Conversion: completes over clicks">CR</dt>
      <dd>{pct(conversion(p))}</dd>
    </dl>
  ),
};

export function redirectsColumn(onOpen: (p: ProjectRow) => void): GridColumn<ProjectRow> {
  return {
    id: "projectRedirects",
    header: "Redirects",
    align: "center",
    headerClassName: "px-2",
    className: "px-2",
    cell: (p) => (
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`Redirects of ${p.projectCode}`}
        title="Redirects"
        onClick={() => onOpen(p)}
      >
        <Link2 />
      </Button>
    ),
  };
}
