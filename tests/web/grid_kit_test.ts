/**
 * Pure pieces behind the grid and error screens: the row menu's sections and confirmations, chunk
 * failures told apart (outage or new release), chart labels that use their room, and placeholders.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { confirmFor, menuSections } from "../../web/src/components/data-grid/row-actions.ts";
import type { RowAction, RowActionEntry } from "../../web/src/components/data-grid/types.ts";
import { explainChunkFailure, isChunkLoadError } from "../../web/src/app/chunk-errors.ts";
import { fitLabel } from "../../web/src/components/charts/labels.ts";

type Row = { code: string; kids: number };
const act = (label: string, extra: Partial<RowAction<Row>> = {}): RowAction<Row> => ({
  label,
  onSelect: () => {},
  ...extra,
});
const labels = (entries: RowActionEntry<Row>[], row: Row) =>
  menuSections(entries, row).map((s) => [s.label ?? "", ...s.actions.map((a) => a.label)]);

Deno.test("row menu: groups keep their order and label; loose actions run together; empty groups go", () => {
  const noKids = (r: Row) => r.kids === 0;
  const entries: RowActionEntry<Row>[] = [
    act("Edit"),
    act("Clone"),
    { label: "View", actions: [act("Logs"), act("Stats", { hidden: noKids })] },
    { label: "E-mail", actions: [act("RFQ Email", { hidden: noKids })] },
    { actions: [act("Delete", { destructive: true })] },
  ];
  assertEquals(labels(entries, { code: "P1", kids: 2 }), [
    ["", "Edit", "Clone"],
    ["View", "Logs", "Stats"],
    ["E-mail", "RFQ Email"],
    ["", "Delete"],
  ]);
  // without children the e-mail group has nothing to show, so neither it nor its separator appears
  assertEquals(labels(entries, { code: "P1", kids: 0 }), [
    ["", "Edit", "Clone"],
    ["View", "Logs"],
    ["", "Delete"],
  ]);
  // a flat list (the other grids) is one section, as before
  assertEquals(labels([act("Edit"), act("Delete")], { code: "P1", kids: 0 }), [["", "Edit", "Delete"]]);
  assertEquals(menuSections([act("Edit", { hidden: () => true })], { code: "P1", kids: 0 }), []);
});

Deno.test("row menu: a confirmation may name the record; 'Are you sure?' stays the title", () => {
  const del = act("Delete", { confirm: { description: (r) => `Delete project ${r.code}?` } });
  assertEquals(confirmFor(del, { code: "P10006", kids: 1 }), { description: "Delete project P10006?" });
  assertEquals(confirmFor(act("Delete", { confirm: true }), { code: "P1", kids: 0 }), {
    description: undefined,
  });
  const fixed = act("Send", { confirm: { description: "Goes to all.", confirmLabel: "Yes, send" } });
  assertEquals(confirmFor(fixed, { code: "P1", kids: 0 }), {
    description: "Goes to all.",
    confirmLabel: "Yes, send",
  });
});

Deno.test("a failed screen load is an outage unless the server answers its health check", async () => {
  for (
    const m of [
      "Failed to fetch dynamically imported module: http://x/assets/ClientsListPage-abc.js",
      "error loading dynamically imported module: http://x/a.js",
      "Importing a module script failed.",
      "Unable to preload CSS for /assets/SupplierStatsChart-x.css",
    ]
  ) assert(isChunkLoadError(new Error(m)), m);
  assert(!isChunkLoadError(new Error("Cannot read properties of undefined")));
  assert(!isChunkLoadError("Failed to fetch dynamically imported module"), "only Errors");

  const answer = (status: number) => () => Promise.resolve(new Response("{}", { status }));
  assertEquals(await explainChunkFailure(answer(200)), "new-version");
  assertEquals(await explainChunkFailure(answer(502)), "unreachable", "a proxy before a stopped server");
  assertEquals(
    await explainChunkFailure(() => Promise.reject(new TypeError("Failed to fetch"))),
    "unreachable",
  );
  // a server that does not answer in time counts as unreachable
  const hang = (signal: AbortSignal) =>
    new Promise<Response>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
  assertEquals(await explainChunkFailure(hang, 20), "unreachable");
});

Deno.test("chart labels show whole when they fit and are cut to their room otherwise", () => {
  const measure = (s: string) => s.length * 7; // 7 px per character
  assertEquals(fitLabel("SurveyNest Canada", 200, measure), "SurveyNest Canada", "room to spare: whole");
  const cut = fitLabel("SurveyNest Canada Panel", 120, measure);
  assert(measure(cut) <= 120 && cut.endsWith("…"), cut);
  assertEquals(cut, "SurveyNest…", "at a word end when one is near");
  assertEquals(fitLabel("Opinionharborpanels", 70, measure), "Opinionha…");
  assertEquals(fitLabel("Panel", 1, measure), "P…", "never nothing");
});
