/**
 * A grouped bar chart drawn with uPlot: one group of bars per label (a day, a month, a year), one
 * bar per series. uPlot draws on a canvas, so the chart also carries an accessible summary (each
 * series' total) and its legend shows the latest bucket's values, or the bucket under the pointer.
 *
 * Values are read on one axis (left) or two (left and right) when the series' units differ, e.g.
 * an invoice amount in dollars beside a count of invoices: each axis has its own format, and an
 * axis of counts ticks on whole numbers only. Each axis is as wide as its widest formatted label,
 * so "$1,200.00" is never cut at the chart's edge.
 */
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { canvasMeasure } from "./labels.ts";

export type BarSeries = {
  label: string;
  color: string;
  values: number[];
  /** The axis the series is read on: "right" for a second unit (default "left"). */
  axis?: "left" | "right";
};

/** How one value axis reads: its label format and whether it counts (whole-number ticks). */
export type ValueAxis = { format: (n: number) => string; integer?: boolean };

export const AXIS_FONT = "12px Inter, system-ui, sans-serif";
/** Tick length and the gap between tick and label (uPlot's defaults), and a little air (px). */
const TICK = 10, GAP = 5, AIR = 6;
/** Whole-number steps for axes of counts. */
const INTEGER_INCRS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500].flatMap((n) => [n, n * 1000, n * 1e6])
  .sort(
    (a, b) => a - b,
  );

/** Bars of series `index` of `count`, side by side within each label's slot. */
function groupedBars(index: number, count: number, scale: string): uPlot.Series.PathBuilder {
  return (u, seriesIdx, i0, i1) => {
    const xs = u.data[0], ys = u.data[seriesIdx];
    const path = new Path2D();
    const slot = u.bbox.width / Math.max(1, xs.length);
    const group = slot * 0.8;
    const width = Math.max(1, group / count - Math.min(2, slot * 0.02));
    const base = u.valToPos(0, scale, true);
    for (let i = i0; i <= i1; i++) {
      const y = ys[i];
      if (y == null) continue;
      const cx = u.valToPos(xs[i], "x", true);
      const left = cx - group / 2 + index * (group / count);
      const top = u.valToPos(y, scale, true);
      path.rect(left, Math.min(top, base), width, Math.max(Math.abs(base - top), y ? 1 : 0));
    }
    return { stroke: path, fill: path };
  };
}

/** A value axis for `scale`: labels in its format, as wide as the widest label, whole ticks for counts. */
function valueAxis(scale: string, spec: ValueAxis, side: 1 | 3, measure: (s: string) => number): uPlot.Axis {
  return {
    scale,
    side,
    font: AXIS_FONT,
    gap: GAP,
    grid: { show: side === 3 },
    values: (_u, splits) => splits.map((v) => spec.format(v)),
    size: (_u, values) =>
      TICK + GAP + AIR + Math.ceil(Math.max(24, ...(values ?? []).map((v) => measure(v ?? "")))),
    ...(spec.integer ? { incrs: INTEGER_INCRS } : {}),
  };
}

/** The top of a value scale: a tenth above the highest bar, a whole number for counts. */
function range(integer: boolean | undefined): uPlot.Scale.Range {
  return (_u, _min, max) => {
    const top = max > 0 ? max * 1.1 : 1;
    return [0, integer ? Math.max(1, Math.ceil(top)) : top];
  };
}

export function BarChart({
  labels,
  series,
  height = 240,
  formatValue = (n) => String(n),
  integer,
  right,
  formatLabel = (s) => s,
  title,
}: {
  labels: string[];
  series: BarSeries[];
  height?: number;
  /** The left axis' format (and the legend's for its series). */
  formatValue?: (n: number) => string;
  /** The left axis counts: whole-number ticks. */
  integer?: boolean;
  /** The right axis, for series with `axis: "right"`. */
  right?: ValueAxis;
  formatLabel?: (label: string) => string;
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = canvasMeasure(AXIS_FONT);
    const left: ValueAxis = { format: formatValue, integer };
    const twoAxes = !!right && series.some((s) => s.axis === "right");
    const axisOf = (s: BarSeries) => (twoAxes && s.axis === "right" ? right! : left);
    const scaleOf = (s: BarSeries) => (twoAxes && s.axis === "right" ? "y2" : "y");
    const xs = labels.map((_, i) => i);
    const last = labels.length - 1;
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height,
      scales: {
        x: { time: false, range: () => [-0.5, labels.length - 0.5] },
        y: { range: range(integer) },
        ...(twoAxes ? { y2: { range: range(right!.integer) } } : {}),
      },
      axes: [
        {
          font: AXIS_FONT,
          values: (_u, splits) =>
            splits.map((v) => (Number.isInteger(v) && labels[v] ? formatLabel(labels[v]) : "")),
          gap: 4,
          size: 36,
        },
        valueAxis("y", left, 3, measure),
        ...(twoAxes ? [valueAxis("y2", right!, 1, measure)] : []),
      ],
      series: [
        { label: "Period", value: (_u, v) => (v == null || !labels[v] ? "" : formatLabel(labels[v])) },
        ...series.map((s, i) => ({
          label: s.label,
          scale: scaleOf(s),
          stroke: s.color,
          fill: s.color,
          width: 0,
          paths: groupedBars(i, series.length, scaleOf(s)),
          points: { show: false },
          value: (_u: uPlot, v: number | null) => (v == null ? "" : axisOf(s).format(v)),
        })),
      ],
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      legend: { live: true },
      hooks: {
        // without a pointer on the chart the legend reads the latest bucket, not blanks
        ready: [(u) => last >= 0 && u.setLegend({ idx: last })],
        setCursor: [(u) => {
          if (u.cursor.idx == null && last >= 0) u.setLegend({ idx: last });
        }],
        // the ticks each value axis drew, for people reading the page's source and for tests
        draw: [(u) => {
          const f = figure.current;
          if (!f) return;
          u.axes.forEach((a, i) => {
            if (i === 0) return;
            // deno-lint-ignore no-explicit-any
            const splits = (a as any)._splits as number[] | undefined;
            f.dataset[a.scale === "y2" ? "rightTicks" : "leftTicks"] = (splits ?? []).join(",");
          });
        }],
      },
    };
    const plot = new uPlot(opts, [xs, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, series, height, formatValue, integer, right, formatLabel]);

  const summary = series.map((s) => {
    const fmt = s.axis === "right" && right ? right.format : formatValue;
    return `${s.label} ${fmt(s.values.reduce((a, b) => a + b, 0))}`;
  }).join(", ");
  return (
    <figure
      ref={figure}
      className="m-0 flex flex-col gap-1"
      data-testid="bar-chart"
      data-points={labels.length}
    >
      <div ref={box} role="img" aria-label={`${title}: ${summary}`} className="w-full min-w-0 text-xs" />
      <figcaption className="sr-only">{summary}</figcaption>
    </figure>
  );
}
