/**
 * The web kits of issue 22 (item 5): tables are declared through StaticTable (or the data grid), a
 * dialog about a row opens through RowDialog, and the static table draws what its columns declare.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { assert, assertEquals } from "../helpers/assert.ts";
import { StaticTable, TABLE_LOOKS } from "../../web/src/components/table/StaticTable.tsx";
import { valuesFrom } from "../../web/src/components/form/RecordFormPage.tsx";

const FEATURES = new URL("../../web/src/features/", import.meta.url);

async function* files(dir: URL, rel = ""): AsyncGenerator<{ rel: string; text: string }> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) yield* files(new URL(e.name + "/", dir), `${rel}${e.name}/`);
    else if (/\.tsx?$/.test(e.name)) {
      yield { rel: rel + e.name, text: await Deno.readTextFile(new URL(e.name, dir)) };
    }
  }
}

/** The features' files that match `re`, with the first matching line. */
async function offenders(re: RegExp): Promise<string[]> {
  const found: string[] = [];
  let read = 0;
  for await (const f of files(FEATURES)) {
    read++;
    const line = f.text.split("\n").findIndex((l) => re.test(l));
    if (line >= 0) found.push(`${f.rel}:${line + 1}`);
  }
  assert(read > 50, `only ${read} feature files read`);
  return found;
}

Deno.test("kits: no feature writes a <table> by hand (StaticTable or the data grid draw them)", async () => {
  assertEquals(await offenders(/<table[\s>]/), []);
});

Deno.test("kits: no feature opens a row's dialog by hand (RowDialog: open={!!row} once, content with the row)", async () => {
  assertEquals(await offenders(/<Dialog\s+open=\{!!/), []);
});

type Row = { id: string; name: string; count: number };
const COLUMNS = [
  { header: "Name", cell: (r: Row) => r.name, className: "font-medium" },
  { header: "Count", cell: (r: Row) => String(r.count), numeric: true },
];

Deno.test("StaticTable draws a header and a row per item from the columns, numbers right-aligned", () => {
  const html = renderToStaticMarkup(createElement(StaticTable<Row>, {
    caption: "Things",
    rows: [{ id: "a", name: "Alpha", count: 3 }, { id: "b", name: "Beta", count: 12 }],
    rowKey: (r: Row) => r.id,
    columns: COLUMNS,
    look: TABLE_LOOKS.figures,
    rowTestId: "thing",
  }));
  assert(html.startsWith('<table data-slot="table" class="w-full text-sm">'), html);
  assert(html.includes("<caption"), "the caption is there for screen readers");
  assertEquals(html.match(/data-testid="thing"/g)?.length, 2);
  assert(html.includes('<td data-slot="table-cell" class="px-3 py-2 font-medium">Alpha</td>'), html);
  assert(html.includes('<td data-slot="table-cell" class="px-3 py-2 text-right tabular-nums">12</td>'), html);
  assert(/<th[^>]*class="[^"]*text-right[^"]*">Count<\/th>/.test(html), html);
});

Deno.test("StaticTable says its empty text in one row across the table, and draws the kit's box by default", () => {
  const html = renderToStaticMarkup(createElement(StaticTable<Row>, {
    rows: [],
    rowKey: (r: Row) => r.id,
    columns: COLUMNS,
    empty: "Nothing yet",
  }));
  assert(html.startsWith(`<div class="${TABLE_LOOKS.kit.wrapper}">`), html);
  assert(html.includes('<td data-slot="table-cell" colSpan="2">Nothing yet</td>'), html);
  const none = renderToStaticMarkup(createElement(StaticTable<Row>, {
    rows: [],
    rowKey: (r: Row) => r.id,
    columns: COLUMNS,
  }));
  assert(!none.includes("<td"), "no empty text, no row");
});

Deno.test("valuesFrom: the record's own values over the empty form's, nulls and unknown keys left out", () => {
  const empty = { name: "", code: "", active: true, tags: [] as string[] };
  assertEquals(valuesFrom(empty, { name: "Acme", code: null, active: false, extra: 1 }), {
    name: "Acme",
    code: "",
    active: false,
    tags: [],
  });
});
