/**
 * Two servers on one database: the second says so at start-up, and the single-run tasks (drop sweep,
 * scheduled jobs, backups, statistics, offer refresh) run on the instance holding their lease in
 * `task_leases` (server/domain/ops/lease.ts); a lease that runs out is taken over, a clean stop gives
 * it up at once.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { startServer } from "../helpers/process.ts";
import { type Db, openDatabase } from "../../server/db/connection.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import {
  leaseGate,
  leases,
  releaseDeadHolders,
  releaseLeases,
  takeLease,
} from "../../server/domain/ops/lease.ts";
import { readHeartbeat } from "../../server/domain/ops/heartbeat.ts";
import { JobScheduler } from "../../server/domain/support/scheduler.ts";
import { createLogger } from "../../server/logger.ts";

/** The lease rules, on any database. */
async function leaseRules(db: Db) {
  {
    const t0 = Date.parse("2026-03-01T10:00:00Z");
    assertEquals(await takeLease(db, "drop-sweep", "a", 90_000, t0), true);
    assertEquals(await takeLease(db, "drop-sweep", "b", 90_000, t0 + 1_000), false, "held by a");
    assertEquals(await takeLease(db, "backups", "b", 90_000, t0 + 1_000), true, "another task is free");
    // a renews within its lease; b still cannot take it
    assertEquals(await takeLease(db, "drop-sweep", "a", 90_000, t0 + 60_000), true);
    assertEquals(await takeLease(db, "drop-sweep", "b", 90_000, t0 + 100_000), false, "renewed until 150 s");
    // a stops renewing (crashed): once the lease ran out, b takes it over and a cannot come back in
    assertEquals(await takeLease(db, "drop-sweep", "b", 90_000, t0 + 150_000), true);
    assertEquals(await takeLease(db, "drop-sweep", "a", 90_000, t0 + 151_000), false);
    const rows = await leases(db);
    assertEquals(rows.map((r) => [r.name, r.holder]), [["backups", "b"], ["drop-sweep", "b"]]);
    assertEquals(rows[1].takenAt, new Date(t0 + 150_000).toISOString());
    // a clean stop gives up b's leases: a takes the sweep at once
    await releaseLeases(db, "b");
    assertEquals(await takeLease(db, "drop-sweep", "a", 90_000, t0 + 152_000), true);
  }
}

Deno.test("task leases: one holder at a time, renewed by its holder, taken over once expired, given up on release", async () => {
  const t = await testApp();
  try {
    await leaseRules(t.deps.db);
  } finally {
    await t.close();
  }
});

Deno.test({
  name: "task leases: the same rules on a libSQL server (two instances on sqld share it)",
  ignore: !sqldSupported,
  async fn() {
    await using server = await startSqld();
    const t = await testApp({ DATABASE_URL: server.url });
    try {
      await leaseRules(t.deps.db);
    } finally {
      await t.close();
    }
  },
});

Deno.test("task leases: a scheduler whose gate says no does not tick; the gate logs a take-over once", async () => {
  const t = await testApp();
  try {
    const lines: string[] = [];
    const log = { ...createLogger("silent"), info: (m: string) => lines.push(m) };
    const deps = { db: t.deps.db, log };
    await takeLease(t.deps.db, "scheduled-jobs", "other", 60_000);
    const gate = leaseGate(deps, "me", "scheduled-jobs", 60_000);
    let asked = 0;
    const s = new JobScheduler(t.deps.db, log, {
      changes: t.deps.services.changes,
      gate: async () => {
        asked++;
        return await gate();
      },
    });
    let ticked = 0;
    s.tick = () => (ticked++, Promise.resolve([]));
    s.start(60_000);
    while (asked === 0) await new Promise((r) => setTimeout(r, 5));
    await s.stop();
    await new Promise((r) => setTimeout(r, 20));
    assertEquals([asked, ticked], [1, 0], "another instance holds the jobs' lease");
    assertEquals(lines, ["task runs on another instance"]);
    await releaseLeases(t.deps.db, "other");
    assertEquals(await gate(), true);
    assertEquals(await gate(), true);
    assertEquals(lines, ["task runs on another instance", "task taken over from another instance"]);
  } finally {
    await t.close();
  }
});

Deno.test("two servers on one database file: the second says so, and each single-run task has one holder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-two-" });
  const file = `${dir}/db.sqlite`;
  try {
    await using first = await startServer(file);
    await using second = await startServer(file);
    const warned = second.output().split("\n").find((l) =>
      l.includes("another server is using this database")
    );
    assert(warned, `the second server says nothing:\n${second.output().slice(-2000)}`);
    assertMatch(warned, new RegExp(`"pid":${first.pid}\\b`));
    assert(!first.output().includes("another server"), "the first was alone when it started");
    const h = await openDatabase(`file:${file}`);
    try {
      const rows = await leases(h.db);
      for (const task of ["drop-sweep", "scheduled-jobs"]) {
        const row = rows.find((r) => r.name === task);
        assert(row, `no lease for ${task}`);
        assertMatch(row.holder, new RegExp(`:${first.pid}:`), `${task} runs on the first server`);
      }
      // a clean stop gives the first's leases up
      await first.stop();
      assertEquals((await leases(h.db)).filter((r) => r.holder.includes(`:${first.pid}:`)), []);
      // and leaves the second's heartbeat alone: `db restore` still sees the database in use
      assertEquals((await readHeartbeat(h.db))?.pid, second.pid);
    } finally {
      await h.close();
    }
    assertEquals(second.exited(), false);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("task leases: an earlier process of this host that is gone has its leases freed at once; others keep theirs", async () => {
  const t = await testApp();
  try {
    const db = t.deps.db;
    const host = Deno.hostname();
    await takeLease(db, "drop-sweep", `${host}:4000001:aaaa`, 600_000);
    await takeLease(db, "backups", `${host}:4000002:bbbb`, 600_000);
    await takeLease(db, "scheduled-jobs", `other-host:4000001:cccc`, 600_000);
    await takeLease(db, "offer-refresh", `${host}:${Deno.pid}:dddd`, 600_000);
    const alive = (pid: number) => pid === 4000002 ? true : pid === 4000001 ? false : null;
    assertEquals(await releaseDeadHolders(db, alive), ["drop-sweep"]);
    assertEquals((await leases(db)).map((r) => r.name), ["backups", "offer-refresh", "scheduled-jobs"]);
    // a process that cannot be told about (no /proc) keeps its lease until it runs out
    assertEquals(await releaseDeadHolders(db, () => null), []);
  } finally {
    await t.close();
  }
});

Deno.test("a server restarted after a kill -9 says nothing of another server and runs the single-run tasks at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-two-" });
  const file = `${dir}/db.sqlite`;
  try {
    const first = await startServer(file);
    const firstPid = first.pid;
    await first.kill();
    await using again = await startServer(file);
    assert(!again.output().includes("another server"), again.output().slice(-2000));
    assertMatch(again.output(), /task leases of a crashed earlier process freed/);
    const h = await openDatabase(`file:${file}`);
    try {
      const sweep = (await leases(h.db)).find((r) => r.name === "drop-sweep");
      assertMatch(sweep?.holder ?? "", new RegExp(`:${again.pid}:`));
      assert(!(await leases(h.db)).some((r) => r.holder.includes(`:${firstPid}:`)));
    } finally {
      await h.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
