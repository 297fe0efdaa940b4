/**
 * A write batch whose transaction sqld times out in the middle (another writer waited past sqld's
 * lock limit, as on a starved CI machine) fails for its caller, and the step promises that
 * @libsql/client leaves rejected behind it do not end the process as uncaught
 * `ResponseError: Transaction timed out` (server/db/remote-leaks.ts). Deno's test runner fails a
 * test on any unhandled rejection, so without the guard this test fails.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../server/db/connection.ts";
import { leakedHranaRejections } from "../../server/db/remote-leaks.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";

const count = (n: number) =>
  `with recursive r(i) as (select 1 union all select i+1 from r where i < ${n}) select count(*) from r`;

Deno.test({
  name: "sqld: a write batch timed out mid-way fails for its caller and leaks no unhandled rejection",
  ignore: !sqldSupported,
  async fn() {
    await using sqld = await startSqld();
    const a = await openDatabase(sqld.url);
    const b = await openDatabase(sqld.url);
    try {
      await a.client.execute("create table t(x)");
      // a read step long enough to outlast sqld's lock limit (about 5 s): calibrated on this machine
      const t0 = performance.now();
      await a.client.execute(count(1_000_000));
      const perRow = (performance.now() - t0) / 1_000_000;
      const rows = Math.min(200_000_000, Math.ceil(9_000 / Math.max(perRow, 1e-6)));
      const before = leakedHranaRejections();
      const held = a.primary!.batch([
        { sql: "insert into t values (1)", args: [] },
        { sql: count(rows), args: [] },
        { sql: "insert into t values (2)", args: [] },
        { sql: "insert into t values (3)", args: [] },
      ], "write").then(() => null, (e: Error) => e);
      await new Promise((r) => setTimeout(r, 300));
      await b.client.batch([{ sql: "insert into t values (9)", args: [] }], "write");
      const err = await held;
      assert.ok(err, "the held batch must fail: its transaction was taken over");
      assert.match(String(err), /TRANSACTION_TIMEOUT|timed out/i);
      // let the leftover step promises settle and reach the unhandled-rejection event
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(leakedHranaRejections() > before, "the library's leftover rejections were seen");
      const got = await b.client.execute("select group_concat(x) g from t");
      assert.equal(got.rows[0].g, "9", "nothing of the failed batch was written");
    } finally {
      await a.close();
      await b.close();
    }
  },
});
