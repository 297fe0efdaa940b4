/**
 * The router's batches to sqld go over kept hrana streams (server/db/kept-stream.ts): one sqld
 * connection reused from batch to batch, each batch one transaction, a failing statement rolling
 * all of it back with the server's message, and a stream sqld expired replaced without running a
 * batch twice.
 */
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { IDLE_MS, KeptStreams, keptStreamUrl } from "../../server/db/kept-stream.ts";
import { openDatabase, remoteOf } from "../../server/db/connection.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";

const ins = (x: number) => ({ sql: "insert into t (x) values (?)", args: [x] });
const count = { sql: "select count(*) as n from t", args: [] };

Deno.test("kept streams: which primaries have them (libsql:// as the client reads it)", () => {
  assertEquals(keptStreamUrl("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  assertEquals(keptStreamUrl("https://db.example.com"), "https://db.example.com");
  assertEquals(keptStreamUrl("libsql://db.example.com"), "https://db.example.com");
  assertEquals(keptStreamUrl("libsql://127.0.0.1:8080?tls=0"), "http://127.0.0.1:8080");
  assertEquals(keptStreamUrl("wss://db.example.com"), null);
  assertEquals(keptStreamUrl("ws://127.0.0.1:8080"), null);
});

Deno.test({
  name: "kept streams: batches share one sqld stream; a failing statement rolls its whole batch back",
  ignore: !sqldSupported,
  async fn() {
    await using sqld = await startSqld();
    const h = await openDatabase(sqld.url);
    try {
      const remote = remoteOf(h.db)!;
      await remote.batch([{ sql: "create table t (x integer unique)", args: [] }], "write");
      await remote.batch([ins(1), ins(2)], "write");
      const [rows] = await remote.batch([{ sql: "select x from t order by x", args: [] }], "read");
      assertEquals(rows.map((r) => r.x), [1, 2], "rows read by column name");
      // the second statement fails: the first is not written either, and the caller has the message
      await assertRejects(() => remote.batch([ins(3), ins(1)], "write"), Error, "UNIQUE constraint failed");
      assertEquals((await remote.batch([count], "read"))[0][0].n, 2);
    } finally {
      await h.close();
    }
  },
});

Deno.test({
  name:
    "kept streams: reused while fresh, replaced when idle; one sqld expired is replaced and the batch runs once",
  ignore: !sqldSupported,
  async fn() {
    await using sqld = await startSqld();
    let now = 0;
    const kept = new KeptStreams(sqld.url, undefined, () => now);
    try {
      await kept.batch([{ sql: "create table t (x integer unique)", args: [] }], "write");
      for (let i = 1; i <= 5; i++) await kept.batch([ins(i)], "write");
      assertEquals(kept.opened, 1, "one stream for six batches");
      now += IDLE_MS + 1;
      await kept.batch([ins(6)], "write");
      assertEquals(kept.opened, 2, "a stream idle past IDLE_MS is not reused");
      // sqld expires a stream idle for 10 s (this clock says it is fresh): the request is refused
      // as a whole, and the batch goes once more on a new stream
      await new Promise((r) => setTimeout(r, 11_000));
      await kept.batch([ins(7)], "write");
      assertEquals(kept.opened, 3);
      const [rows] = await kept.batch([{ sql: "select x from t order by x", args: [] }], "read");
      assertEquals(rows.map((r) => r.x), [1, 2, 3, 4, 5, 6, 7], "each insert ran exactly once");
    } finally {
      kept.close();
    }
  },
});
