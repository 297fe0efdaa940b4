/**
 * Grouped bars of Completes, Terminates and Over Quota per supplier, drawn by uPlot. Loaded on first
 * use (React.lazy from the Supplier Stats dialog), so no other screen pays for uPlot.
 *
 * uPlot draws series over one shared x axis, so each supplier takes four x slots: one per outcome
 * and a gap; a series has a value only at its own slot, and the axis labels the middle slot.
 */
import * as React from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { SupplierStat } from "./projects.ts";
import { canvasMeasure, fitLabel } from "../../components/charts/labels.ts";

export const SERIES = [
  { key: "complete", label: "Completes", color: "#10b981" },
  { key: "terminate", label: "Terminates", color: "#ef4444" },
  { key: "overQuota", label: "Over Quota", color: "#f59e0b" },
] as const;

const SLOTS = SERIES.length + 1;
const HEIGHT = 280;
const AXIS_FONT = "12px Inter, system-ui, sans-serif";
/** Room kept free between two suppliers' labels (px). */
const LABEL_GAP = 8;
/** The y axis and padding beside the plot (px), until uPlot has laid the plot out. */
const Y_AXIS_ROOM = 60;
export default function SupplierStatsChart({ stats }: { stats: SupplierStat[] }) {
  const box = React.useRef<HTMLDivElement>(null);

  React.useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs: number[] = [];
    const ys: (number | null)[][] = SERIES.map(() => []);
    stats.forEach((s, i) => {
      SERIES.forEach((_, k) => {
        xs.push(i * SLOTS + k);
        SERIES.forEach((serie, j) => ys[j].push(j === k ? s[serie.key] : null));
      });
    });
    const centers = stats.map((_, i) => i * SLOTS + 1);
    const measure = canvasMeasure(AXIS_FONT);
    // each supplier's label may take its share of the plot's width: names show whole when they fit
    const labelRoom = (u: uPlot) => {
      const plotWidth = u.bbox.width > 0 ? u.bbox.width / uPlot.pxRatio : el.clientWidth - Y_AXIS_ROOM;
      return plotWidth / Math.max(1, stats.length) - LABEL_GAP;
    };
    const bars = uPlot.paths.bars!({ size: [0.9, 48], align: 0, radius: [0.15, 0] });
    const opts: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: false, range: [-1, stats.length * SLOTS - 1] },
        y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
      },
      axes: [
        {
          splits: () => centers,
          values: (u, splits) =>
            splits.map((x) => fitLabel(stats[(x - 1) / SLOTS]?.supplierName ?? "", labelRoom(u), measure)),
          grid: { show: false },
          stroke: "#64748b",
          font: AXIS_FONT,
        },
        {
          stroke: "#64748b",
          grid: { stroke: "#e2e8f0", width: 1 },
          font: AXIS_FONT,
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : "")),
        },
      ],
      series: [
        {},
        ...SERIES.map((s) => ({
          label: s.label,
          fill: s.color,
          stroke: s.color,
          width: 0,
          paths: bars,
          points: { show: false },
        })),
      ],
    };
    const plot = new uPlot(opts, [xs, ...ys] as uPlot.AlignedData, el);
    const ro = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(320, el.clientWidth), height: HEIGHT })
    );
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [stats]);

  return (
    <figure className="flex flex-col gap-2">
      <div
        ref={box}
        className="w-full"
        role="img"
        aria-label="Completes, terminates and over quota per supplier"
      />
      <figcaption className="flex flex-wrap justify-center gap-4 text-xs text-muted-foreground">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-sm" style={{ background: s.color }} aria-hidden="true" />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
