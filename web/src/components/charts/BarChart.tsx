/**
 * A grouped bar chart drawn with uPlot: one group of bars per label (a day, a month, a year), one
 * bar per series. uPlot draws on a canvas, so the chart also carries an accessible summary (each
 * series' total) and its hover legend shows every value of the bucket under the pointer.
 */
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export type BarSeries = { label: string; color: string; values: number[] };

/** Bars of series `index` of `count`, side by side within each label's slot. */
function groupedBars(index: number, count: number): uPlot.Series.PathBuilder {
  return (u, seriesIdx, i0, i1) => {
    const xs = u.data[0], ys = u.data[seriesIdx];
    const path = new Path2D();
    const slot = u.bbox.width / Math.max(1, xs.length);
    const group = slot * 0.8;
    const width = Math.max(1, group / count - Math.min(2, slot * 0.02));
    const base = u.valToPos(0, "y", true);
    for (let i = i0; i <= i1; i++) {
      const y = ys[i];
      if (y == null) continue;
      const cx = u.valToPos(xs[i], "x", true);
      const left = cx - group / 2 + index * (group / count);
      const top = u.valToPos(y, "y", true);
      path.rect(left, Math.min(top, base), width, Math.max(Math.abs(base - top), y ? 1 : 0));
    }
    return { stroke: path, fill: path };
  };
}

export function BarChart({
  labels,
  series,
  height = 240,
  formatValue = (n) => String(n),
  formatLabel = (s) => s,
  title,
}: {
  labels: string[];
  series: BarSeries[];
  height?: number;
  formatValue?: (n: number) => string;
  formatLabel?: (label: string) => string;
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = labels.map((_, i) => i);
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height,
      scales: {
        x: { time: false, range: () => [-0.5, labels.length - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        {
          values: (_u, splits) =>
            splits.map((v) => (Number.isInteger(v) && labels[v] ? formatLabel(labels[v]) : "")),
          gap: 4,
          size: 36,
        },
        { values: (_u, splits) => splits.map((v) => formatValue(v)), size: 64 },
      ],
      series: [
        { label: "Period", value: (_u, v) => (v == null || !labels[v] ? "" : formatLabel(labels[v])) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color,
          fill: s.color,
          width: 0,
          paths: groupedBars(i, series.length),
          points: { show: false },
          value: (_u: uPlot, v: number | null) => (v == null ? "" : formatValue(v)),
        })),
      ],
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      legend: { live: true },
    };
    const plot = new uPlot(opts, [xs, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, series, height, formatValue, formatLabel]);

  const summary = series.map((s) => `${s.label} ${formatValue(s.values.reduce((a, b) => a + b, 0))}`).join(
    ", ",
  );
  return (
    <figure className="m-0 flex flex-col gap-1" data-testid="bar-chart" data-points={labels.length}>
      <div ref={box} role="img" aria-label={`${title}: ${summary}`} className="w-full min-w-0 text-xs" />
      <figcaption className="sr-only">{summary}</figcaption>
    </figure>
  );
}
