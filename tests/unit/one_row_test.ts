/**
 * server/db/one-row.ts: many rows by id read as ONE row, on the local client and on @libsql/client:
 * the same rows as a plain read, whatever the number of ids, with one statement text for all.
 */
import { assertEquals } from "../helpers/assert.ts";
import { createClient } from "@libsql/client";
import { LocalClient } from "../../server/db/local-client.ts";
import { asOneRow, byIdsAsOneRow, IN_JSON, rowsOfOneRow } from "../../server/db/one-row.ts";

const COLUMNS = ["id", "n", "r", "label"];

Deno.test("one-row reads: the rows of the ids asked, numbers, text and nulls as stored", async () => {
  for (const c of [new LocalClient(":memory:"), createClient({ url: ":memory:", intMode: "number" })]) {
    try {
      await c.execute("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, r REAL, label TEXT)");
      await c.execute({
        sql: "INSERT INTO t VALUES ('a', 1, 1.5, 'x'), ('b', 2, NULL, NULL), ('c', 3, 0.25, 'z')",
      });
      const read = async (ids: string[]) => {
        const s = byIdsAsOneRow("t", COLUMNS, ids);
        const rows = rowsOfOneRow((await c.execute(s)).rows as unknown as Record<string, unknown>[], COLUMNS);
        return { sql: s.sql, rows: rows.sort((x, y) => String(x.id).localeCompare(String(y.id))) };
      };
      const two = await read(["c", "a", "nope"]);
      assertEquals(two.rows, [{ id: "a", n: 1, r: 1.5, label: "x" }, { id: "c", n: 3, r: 0.25, label: "z" }]);
      const one = await read(["b"]);
      assertEquals(one.rows, [{ id: "b", n: 2, r: null, label: null }]);
      assertEquals(one.sql, two.sql, "one statement text whatever the number of ids");
      assertEquals((await read([])).rows, []);
      assertEquals((await read(["nope"])).rows, []);
    } finally {
      c.close();
    }
  }
});

Deno.test("one-row reads: any WHERE with lists as JSON arguments, text that looks like JSON kept as text", async () => {
  for (const c of [new LocalClient(":memory:"), createClient({ url: ":memory:", intMode: "number" })]) {
    try {
      await c.execute("CREATE TABLE s (id TEXT PRIMARY KEY, p TEXT, sid TEXT, cells TEXT, live INTEGER)");
      await c.execute({
        sql: `INSERT INTO s VALUES ('1', 'P1', 'm1', '[{"a":1}]', 1), ('2', 'P1', 'm2', NULL, 1),
          ('3', 'P2', 'm1', '', 1), ('4', 'P1', 'm1', '[]', 0)`,
      });
      const cols = ["id", "p", "sid", "cells", "live"];
      const read = async (ps: string[], sids: string[]) => {
        const s = asOneRow(cols, `s WHERE live = 1 AND p IN ${IN_JSON} AND sid IN ${IN_JSON}`, [
          JSON.stringify(ps),
          JSON.stringify(sids),
        ]);
        const rows = rowsOfOneRow((await c.execute(s)).rows as unknown as Record<string, unknown>[], cols);
        return { sql: s.sql, ids: rows.map((r) => r.id).sort(), rows };
      };
      const a = await read(["P1"], ["m1"]);
      assertEquals(a.rows, [{ id: "1", p: "P1", sid: "m1", cells: '[{"a":1}]', live: 1 }]);
      const b = await read(["P1", "P2"], ["m1", "m2", "m9"]);
      assertEquals(b.ids, ["1", "2", "3"]);
      assertEquals(b.sql, a.sql, "one statement text whatever the lists' lengths");
      assertEquals((await read([], ["m1"])).rows, []);
    } finally {
      c.close();
    }
  }
});
