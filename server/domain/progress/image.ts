/**
 * The progress report as a picture: satori lays the figures out as SVG, resvg rasterises it to PNG.
 * The font (Inter, from the npm package @fontsource/inter, declared in server/package-files.ts so the
 * production image installs it) is read once; nothing is fetched at run time.
 */
import satori from "satori";
import { Resvg } from "@resvg/resvg-js";
import type { ProgressData, QuotaBar } from "./data.ts";
import { packageFile, PACKAGES_READ } from "../../package-files.ts";
import { once } from "../../lib/memo.ts";

const WIDTH = 1000;
const MAX_BARS = 12;

type Font = { name: string; data: ArrayBuffer; weight: 400 | 700; style: "normal" };
/** The two weights of the font, read once per process. */
const loadFonts = once((): Promise<Font[]> => {
  const read = async (weight: 400 | 700): Promise<Font> => {
    const bytes = await Deno.readFile(
      packageFile(PACKAGES_READ.font, `files/inter-latin-${weight}-normal.woff`),
    );
    return { name: "Inter", data: bytes.buffer as ArrayBuffer, weight, style: "normal" };
  };
  return Promise.all([read(400), read(700)]);
});

// ---------------------------------------------------------------- a tiny element builder

type Style = Record<string, string | number>;
type Node = { type: string; props: { style: Style; children?: Child | Child[] } };
type Child = Node | string;
const el = (style: Style, ...children: Child[]): Node => ({
  type: "div",
  props: { style: { display: "flex", ...style }, children: children.length === 1 ? children[0] : children },
});
const text = (s: string | number, style: Style = {}) => el(style, String(s));

const C = {
  ink: "#0f172a",
  muted: "#64748b",
  line: "#e2e8f0",
  track: "#f1f5f9",
  brand: "#2563eb",
  light: "#93c5fd",
  done: "#16a34a",
  warn: "#d97706",
};

const fmt = (n: number) => n.toLocaleString("en-US");
const pctText = (n: number | null) => (n === null ? "–" : `${n.toFixed(1)}%`);

function tile(label: string, value: string, note = "", first = false) {
  return el(
    {
      flexDirection: "column",
      flexGrow: 1,
      flexBasis: 0,
      padding: "14px 18px",
      border: `1px solid ${C.line}`,
      borderRadius: 10,
      marginLeft: first ? 0 : 12,
    },
    text(label, { fontSize: 15, color: C.muted }),
    text(value, { fontSize: 30, fontWeight: 700, color: C.ink, marginTop: 4 }),
    text(note || " ", { fontSize: 13, color: C.muted, marginTop: 2 }),
  );
}

function bar(b: QuotaBar) {
  const share = b.quota > 0 ? Math.min(1, b.complete / b.quota) : b.complete > 0 ? 1 : 0;
  const full = b.quota > 0 && b.complete >= b.quota;
  return el(
    { alignItems: "center", marginTop: 8 },
    el(
      { flexDirection: "column", width: 250 },
      text(b.label, { fontSize: 15, fontWeight: 700, color: C.ink }),
      ...(b.sublabel ? [text(b.sublabel.slice(0, 34), { fontSize: 12, color: C.muted })] : []),
    ),
    el(
      { flexGrow: 1, height: 18, backgroundColor: C.track, borderRadius: 9, marginRight: 14 },
      el({
        width: `${Math.round(share * 1000) / 10}%`,
        height: 18,
        borderRadius: 9,
        backgroundColor: full ? C.done : C.brand,
      }),
    ),
    text(`${fmt(b.complete)} / ${b.quota > 0 ? fmt(b.quota) : "–"}`, {
      width: 130,
      justifyContent: "flex-end",
      fontSize: 15,
      color: full ? C.done : C.ink,
      fontWeight: 700,
    }),
  );
}

function section(title: string, bars: QuotaBar[], empty: string) {
  const shown = bars.slice(0, MAX_BARS);
  const rest = bars.length - shown.length;
  return el(
    { flexDirection: "column", marginTop: 26 },
    text(title, { fontSize: 19, fontWeight: 700, color: C.ink, marginBottom: 4 }),
    ...(shown.length ? shown.map(bar) : [text(empty, { fontSize: 14, color: C.muted, marginTop: 6 })]),
    ...(rest > 0 ? [text(`and ${rest} more`, { fontSize: 13, color: C.muted, marginTop: 6 })] : []),
  );
}

function traffic(d: ProgressData) {
  const H = 150;
  const max = Math.max(1, ...d.days.map((x) => x.clicked));
  return el(
    { flexDirection: "column", marginTop: 26 },
    el(
      { alignItems: "center", marginBottom: 8 },
      text(`Traffic, last ${d.days.length} days`, {
        fontSize: 19,
        fontWeight: 700,
        color: C.ink,
        flexGrow: 1,
      }),
      el({ width: 12, height: 12, backgroundColor: C.light, marginRight: 6 }),
      text("Clicks", { fontSize: 13, color: C.muted, marginRight: 16 }),
      el({ width: 12, height: 12, backgroundColor: C.done, marginRight: 6 }),
      text("Completes", { fontSize: 13, color: C.muted }),
    ),
    el(
      { alignItems: "flex-end", height: H + 40, borderBottom: `1px solid ${C.line}` },
      ...d.days.map((x) =>
        el(
          {
            flexDirection: "column",
            alignItems: "center",
            justifyContent: "flex-end",
            flexGrow: 1,
            flexBasis: 0,
          },
          text(x.clicked ? fmt(x.clicked) : "", { fontSize: 11, color: C.muted, marginBottom: 2 }),
          el(
            { alignItems: "flex-end", height: Math.max(1, Math.round((x.clicked / max) * H)) },
            el({ width: 18, height: "100%", backgroundColor: C.light }),
            el({
              width: 18,
              height: Math.round((x.complete / max) * H),
              backgroundColor: C.done,
              marginLeft: 2,
            }),
          ),
        )
      ),
    ),
    el(
      {},
      ...d.days.map((x) =>
        text(`${x.date.slice(8, 10)}/${x.date.slice(5, 7)}`, {
          flexGrow: 1,
          flexBasis: 0,
          justifyContent: "center",
          fontSize: 11,
          color: C.muted,
          marginTop: 4,
        })
      ),
    ),
  );
}

function report(d: ProgressData): Node {
  const left = d.sampleSize > 0 ? Math.max(0, d.sampleSize - d.complete) : null;
  return el(
    {
      flexDirection: "column",
      width: WIDTH,
      height: reportHeight(d),
      boxSizing: "border-box",
      backgroundColor: "#ffffff",
      padding: "32px 40px",
      fontFamily: "Inter",
      color: C.ink,
    },
    el(
      { alignItems: "flex-end", borderBottom: `2px solid ${C.ink}`, paddingBottom: 14 },
      el(
        { flexDirection: "column", flexGrow: 1 },
        text("Progress report", {
          fontSize: 14,
          color: C.muted,
          textTransform: "uppercase",
          letterSpacing: 1,
        }),
        text(`${d.projectCode} · ${d.projectName}`.slice(0, 70), { fontSize: 28, fontWeight: 700 }),
      ),
      el(
        { flexDirection: "column", alignItems: "flex-end" },
        text(d.statusLabel, { fontSize: 18, fontWeight: 700, color: C.brand }),
        text(`${d.generatedAt.slice(0, 16).replace("T", " ")} UTC`, { fontSize: 13, color: C.muted }),
        ...(d.managerName ? [text(`Manager: ${d.managerName}`, { fontSize: 13, color: C.muted })] : []),
      ),
    ),
    el(
      { marginTop: 22 },
      tile(
        "Completes",
        `${fmt(d.complete)} / ${d.sampleSize > 0 ? fmt(d.sampleSize) : "–"}`,
        left === null ? "no sample size" : left === 0 ? "sample size reached" : `${fmt(left)} to go`,
        true,
      ),
      tile("Clicks", fmt(d.clicked), `${fmt(d.terminate)} terminates · ${fmt(d.drop)} drops`),
      tile("IR", pctText(d.ir), "of completes + terminates"),
      tile("Conversion", pctText(d.conversion), "completes per click"),
    ),
    ...(d.isGroup ? [section("Completes by child project", d.children, "No child projects yet")] : []),
    section("Completes by supplier", d.suppliers, "No suppliers mapped yet"),
    traffic(d),
  );
}

/** The picture's height: a fixed frame plus a row per bar shown. */
export function reportHeight(d: ProgressData): number {
  const rows = (list: QuotaBar[]) =>
    Math.max(1, Math.min(MAX_BARS, list.length)) * (list.some((b) => b.sublabel) ? 41 : 26) + 58 +
    (list.length > MAX_BARS ? 24 : 0);
  return 32 + 70 + 22 + 110 + (d.isGroup ? rows(d.children) : 0) + rows(d.suppliers) + 270 + 32;
}

/** The report as an SVG document. */
export async function progressSvg(d: ProgressData): Promise<string> {
  // deno-lint-ignore no-explicit-any
  return await satori(report(d) as any, { width: WIDTH, height: reportHeight(d), fonts: await loadFonts() });
}

/** The report as a PNG image. */
export async function progressPng(d: ProgressData): Promise<Uint8Array<ArrayBuffer>> {
  const svg = await progressSvg(d);
  return new Resvg(svg, { fitTo: { mode: "width", value: WIDTH }, background: "#ffffff" }).render()
    .asPng() as Uint8Array<ArrayBuffer>;
}

/** The file name of a project's report. */
export const progressFileName = (d: { projectCode: string; generatedAt: string }) =>
  `${d.projectCode.replace(/[^\w-]+/g, "_")}-progress-${d.generatedAt.slice(0, 10)}.png`;
