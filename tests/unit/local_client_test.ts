/**
 * server/db/local-client.ts: the local database client answers as @libsql/client does (named
 * rows, numbers, BLOBs, errors, transactions) while keeping its writing statements prepared.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { createClient, LibsqlError } from "@libsql/client";
import { LocalClient } from "../../server/db/local-client.ts";

Deno.test("local client: rows, values and errors as @libsql/client gives them", async () => {
  const ours = new LocalClient(":memory:");
  const theirs = createClient({ url: ":memory:", intMode: "number" });
  try {
    for (const c of [ours, theirs]) {
      await c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER, r REAL, b BLOB)");
      await c.execute({
        sql: "INSERT INTO t (name, n, r, b) VALUES (?, ?, ?, ?)",
        args: ["a", 7, 1.5, new Uint8Array([1, 2, 3]).buffer],
      });
      await c.execute({
        sql: "INSERT INTO t (name, n, r, b) VALUES (:name, :n, NULL, NULL)",
        args: { name: "b", n: 8 },
      });
    }
    const q = "SELECT id, name, n, r, b, n + 1 AS next FROM t ORDER BY id";
    const a = await ours.execute(q), b = await theirs.execute(q);
    assertEquals(a.columns, b.columns);
    assertEquals(a.rows.map((r) => ({ ...r })), b.rows.map((r) => ({ ...r })));
    assert(a.rows[0].b instanceof ArrayBuffer, "a BLOB comes back as an ArrayBuffer");
    const w = await ours.execute({ sql: "UPDATE t SET n = n + 1 WHERE name = ?", args: ["a"] });
    assertEquals([w.rowsAffected, w.rows.length], [1, 0]);

    // a unique violation is a LibsqlError with SQLite's codes
    const err = await ours.execute({ sql: "INSERT INTO t (name) VALUES (?)", args: ["a"] }).catch((e) => e);
    assert(err instanceof LibsqlError, `a LibsqlError, got ${err}`);
    assertEquals([err.code, err.extendedCode], ["SQLITE_CONSTRAINT", "SQLITE_CONSTRAINT_UNIQUE"]);
    // an integer past 2^53 is refused, as the client's intMode "number" does
    await ours.execute("INSERT INTO t (name, n) VALUES ('big', 9007199254740993)");
    const big = await ours.execute("SELECT n FROM t WHERE name = 'big'").catch((e) => e);
    assert(big instanceof RangeError, `a RangeError, got ${big}`);
  } finally {
    ours.close();
    theirs.close();
  }
});

Deno.test("local client: a kept statement runs again after the schema changes; transactions commit and roll back", async () => {
  const c = new LocalClient(":memory:");
  try {
    await c.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    const put = (k: string, v: number) =>
      c.execute({ sql: "INSERT INTO t (k, v) VALUES (?, ?)", args: [k, v] });
    await put("a", 1);
    await c.execute("ALTER TABLE t ADD COLUMN w INTEGER NOT NULL DEFAULT 5");
    await put("b", 2);
    assertEquals((await c.execute("SELECT k, v, w FROM t ORDER BY k")).rows.map((r) => ({ ...r })), [
      { k: "a", v: 1, w: 5 },
      { k: "b", v: 2, w: 5 },
    ]);

    const tx = await c.transaction("write");
    await tx.execute({ sql: "UPDATE t SET v = 10 WHERE k = ?", args: ["a"] });
    // the client's one connection is the transaction's until it ends
    const busy = await c.execute("SELECT 1").catch((e) => e);
    assert(
      busy instanceof LibsqlError && busy.code === "TRANSACTION_ACTIVE",
      `refused while open, got ${busy}`,
    );
    await tx.rollback();
    const tx2 = await c.transaction("write");
    await tx2.execute({ sql: "UPDATE t SET v = 20 WHERE k = ?", args: ["b"] });
    await tx2.commit();
    tx2.close();
    assertEquals((await c.execute("SELECT k, v FROM t ORDER BY k")).rows.map((r) => ({ ...r })), [
      { k: "a", v: 1 },
      { k: "b", v: 20 },
    ]);
  } finally {
    c.close();
  }
});

Deno.test("local client: a read's kept columns follow the schema: its own change drops them, another connection's is seen by the rows' width", async () => {
  const dir = await Deno.makeTempDir();
  const c = new LocalClient(`${dir}/shape.db`);
  const other = new LocalClient(`${dir}/shape.db`);
  try {
    await c.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    await c.execute("INSERT INTO t (k, v) VALUES ('a', 1)");
    const all = async (client: LocalClient) => {
      const r = await client.execute("SELECT * FROM t ORDER BY k");
      return { columns: r.columns, rows: r.rows.map((x) => ({ ...x })) };
    };
    assertEquals(await all(c), { columns: ["k", "v"], rows: [{ k: "a", v: 1 }] });
    // this connection's own change: the same SQL text answers the new columns
    await c.execute("ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'x'");
    assertEquals(await all(c), { columns: ["k", "v", "w"], rows: [{ k: "a", v: 1, w: "x" }] });
    // a script of statements counts as a change too
    await c.executeMultiple("ALTER TABLE t ADD COLUMN y INTEGER NOT NULL DEFAULT 7; SELECT 1;");
    assertEquals((await all(c)).columns, ["k", "v", "w", "y"]);
    // another connection's (another process's migration): the rows' width tells
    await other.execute("ALTER TABLE t DROP COLUMN w");
    assertEquals(await all(c), { columns: ["k", "v", "y"], rows: [{ k: "a", v: 1, y: 7 }] });
  } finally {
    c.close();
    other.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("local client: a read of a row at most (LIMIT 1, or LIMIT ? bound to 1) answers as any read, kept prepared", async () => {
  const c = new LocalClient(":memory:");
  try {
    await c.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    await c.execute("INSERT INTO t (k, v) VALUES ('a', 1), ('b', 2), ('c', 3)");
    const q = (sql: string, args: (string | number)[]) =>
      c.execute({ sql, args }).then((r) => r.rows.map((x) => ({ ...x })));
    for (let i = 0; i < 3; i++) {
      assertEquals(await q("SELECT k, v FROM t WHERE k = ? LIMIT ?", ["b", 1]), [{ k: "b", v: 2 + 10 * i }]);
      assertEquals(await q("SELECT k, v FROM t WHERE k = ? LIMIT ?", ["z", 1]), []);
      // the same text with another limit is an ordinary read
      assertEquals(await q("SELECT k, v FROM t WHERE k = ? LIMIT ?", ["b", 5]), [{ k: "b", v: 2 + 10 * i }]);
      assertEquals((await q("SELECT k FROM t WHERE k >= ? ORDER BY k LIMIT ?", ["a", 2])).length, 2);
      assertEquals(await q("SELECT count(*) AS n FROM t WHERE v > ? LIMIT 1", [1]), [{ n: 2 }]);
      await c.execute({ sql: "UPDATE t SET v = v + 10 WHERE k = ?", args: ["b"] });
      // a kept one sees every write
      assertEquals(await q("SELECT v FROM t WHERE k = ? LIMIT ?", ["b", 1]), [{ v: 12 + 10 * i }]);
    }
    // its columns follow a change of the schema
    await c.execute("ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'x'");
    assertEquals(await q("SELECT * FROM t WHERE k = ? LIMIT ?", ["a", 1]), [{ k: "a", v: 1, w: "x" }]);
  } finally {
    c.close();
  }
});
