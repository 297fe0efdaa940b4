/**
 * server/domain/router/hook-results.ts: a round's results are settled one statement per kind of
 * result, each row matched with its own claim's lease, by id (in runs of consecutive ids) or by key
 * (claimed at birth on a remote primary, whose batch does not tell the ids); a row whose lease is no
 * longer the one the send was made under (another sender has it) is left as it is and the overrun
 * is logged.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { createLogger } from "../../server/logger.ts";
import { idRuns, type Result, settleResults } from "../../server/domain/router/hook-results.ts";
import { hookIds, type HookRow } from "../../server/domain/router/callback-events.ts";

const AT = "2026-11-26T10:00:00.000Z";

/** Claimed ('sending') complete callbacks, one per key, each under the lease `nextAt` gives it; their ids. */
async function claimed(
  t: Awaited<ReturnType<typeof testApp>>,
  keys: string[],
  nextAt: (i: number) => string,
) {
  const rows = keys.map((k, i) => ({
    sessionId: `s-${k}`,
    supplierId: "sup",
    url: "https://panel.example/hook",
    status: "sending" as const,
    attempts: 1,
    nextAt: nextAt(i),
    createdAt: AT,
    updatedAt: AT,
    event: "complete",
    hookKey: `s-${k}-c`,
  }));
  const ids = (await t.deps.db.insertInto("router_hooks").values(rows).returning("id").execute())
    .map((r) => Number(r.id));
  return { rows, ids };
}

/** What a sent callback carries besides its id, key and lease (settleResults reads those). */
const base = {
  sessionId: "",
  supplierId: "sup",
  url: "",
  status: "sending",
  attempts: 1,
  event: "complete",
  vars: null,
};
const sent = { status: "sent" as const, attempts: 1, lastAnswer: "HTTP 200", lastError: "" };

Deno.test("hook results: each row is settled under its own lease, by id or by key; a row another sender took is left and logged", async () => {
  const t = await testApp();
  const warnings: string[] = [];
  const log = createLogger("warn", (line) => warnings.push(line));
  try {
    const at = AT;
    const leases = ["2026-11-26T10:01:00.000Z", "2026-11-26T10:01:00.500Z"];
    // six claimed rows: a, b under the first lease, c, d under the second, e and f taken over since
    const { rows, ids } = await claimed(
      t,
      ["a", "b", "c", "d", "e", "f"],
      (i) => i >= 4 ? "2026-11-26T10:05:00.000Z" : leases[i < 2 ? 0 : 1],
    );
    const retry = {
      status: "queued" as const,
      attempts: 1,
      lastAnswer: "HTTP 500",
      lastError: "HTTP 500",
      nextAt: "2026-11-26T10:02:00.000Z",
    };
    const byId = (i: number, lease: string, set: Result["set"]): Result => ({
      h: { ...base, id: ids[i], hookKey: rows[i].hookKey, nextAt: lease, lease },
      set,
    });
    const byKey = (i: number, lease: string, set: Result["set"]): Result => ({
      h: { ...base, id: null, hookKey: rows[i].hookKey, nextAt: lease, lease },
      set,
    });
    await settleResults(t.deps.db, log, {
      results: [
        byKey(0, leases[0], sent),
        byKey(2, leases[1], sent),
        byId(1, leases[0], retry),
        byId(3, leases[1], sent),
        // sent under a lease that is no longer the row's: one by key, one by id
        byKey(4, leases[0], sent),
        byId(5, leases[1], sent),
      ],
      now: Date.parse("2026-11-26T10:00:30.000Z"),
    });
    const after = await t.deps.db.selectFrom("router_hooks")
      .select(["hookKey", "status", "lastAnswer", "nextAt", "updatedAt"]).orderBy("id").execute();
    const settledAt = "2026-11-26T10:00:30.000Z";
    assertEquals(after, [
      { hookKey: "s-a-c", status: "sent", lastAnswer: "HTTP 200", nextAt: leases[0], updatedAt: settledAt },
      {
        hookKey: "s-b-c",
        status: "queued",
        lastAnswer: "HTTP 500",
        nextAt: retry.nextAt,
        updatedAt: settledAt,
      },
      { hookKey: "s-c-c", status: "sent", lastAnswer: "HTTP 200", nextAt: leases[1], updatedAt: settledAt },
      { hookKey: "s-d-c", status: "sent", lastAnswer: "HTTP 200", nextAt: leases[1], updatedAt: settledAt },
      {
        hookKey: "s-e-c",
        status: "sending",
        lastAnswer: "",
        nextAt: "2026-11-26T10:05:00.000Z",
        updatedAt: at,
      },
      {
        hookKey: "s-f-c",
        status: "sending",
        lastAnswer: "",
        nextAt: "2026-11-26T10:05:00.000Z",
        updatedAt: at,
      },
    ]);
    const overrun = warnings.filter((w) => w.includes("outlived its lease"));
    assertEquals(overrun.length, 2, warnings.join("\n"));
    assert(overrun.some((w) => w.includes("s-e-c")), "the one found by key is named by its key");
    assert(overrun.some((w) => w.includes(String(ids[5]))), "the one found by id is named by its id");
  } finally {
    await t.close();
  }
});

Deno.test("hook results: rows found by id are settled in runs of consecutive ids, and an id between two of them that is not in the round is left as it is", async () => {
  const t = await testApp();
  const log = createLogger("warn", () => {});
  try {
    const lease = "2026-11-26T10:01:00.000Z";
    const { rows, ids } = await claimed(t, ["0", "1", "2", "3", "4", "5", "6"], () => lease);
    const h = (i: number) => ({ ...base, id: ids[i], hookKey: rows[i].hookKey, nextAt: lease, lease });
    // 0, 1, 2 and 4, 5 delivered (two runs, given out of order); 3 still on its way; 6 not in the round
    await settleResults(t.deps.db, log, {
      results: [5, 0, 2, 1, 4].map((i) => ({ h: h(i), set: sent })),
      now: Date.parse("2026-11-26T10:00:30.000Z"),
    });
    const after = await t.deps.db.selectFrom("router_hooks").select(["hookKey", "status"]).orderBy("id")
      .execute();
    assertEquals(after.map((r) => r.status), ["sent", "sent", "sent", "sending", "sent", "sent", "sending"]);
  } finally {
    await t.close();
  }
});

Deno.test("hook results: idRuns groups consecutive ids under one lease; hookIds gives a batch its ids only when the INSERT wrote them all", () => {
  assertEquals(idRuns([[7, "L1"], [5, "L1"], [6, "L1"], [9, "L1"], [10, "L2"], [11, "L2"]]), [
    [5, 7, "L1"],
    [9, 9, "L1"],
    [10, 11, "L2"],
  ]);
  assertEquals(idRuns([]), []);
  const batch = () =>
    ["a", "b", "c"].map((k): HookRow => ({
      sessionId: k,
      supplierId: "s",
      url: "",
      event: "complete",
      key: k,
      vars: "{}",
    }));
  const given = batch();
  hookIds(given, { lastId: 42n, count: 3n });
  assertEquals(given.map((h) => h.id), [40, 41, 42]);
  for (const r of [{ lastId: 42, count: 2 }, { lastId: undefined, count: 3 }, { lastId: "x", count: 3 }]) {
    const none = batch();
    hookIds(none, r);
    assertEquals(
      none.map((h) => h.id),
      [undefined, undefined, undefined],
      JSON.stringify(r, (_, v) => v ?? null),
    );
  }
});

Deno.test("hook results: delivered runs told by the worker settle with the round's results of the same answer, each under its lease; a run's row another sender took is left and logged by id", async () => {
  const t = await testApp();
  const warnings: string[] = [];
  const log = createLogger("warn", (line) => warnings.push(line));
  try {
    const lease = "2026-11-26T10:01:00.000Z", other = "2026-11-26T10:05:00.000Z";
    // 0-6 claimed under the lease but 5, taken over since (another lease)
    const { rows, ids } = await claimed(
      t,
      ["0", "1", "2", "3", "4", "5", "6"],
      (i) => i === 5 ? other : lease,
    );
    const h = (i: number) => ({ ...base, id: ids[i], hookKey: rows[i].hookKey, nextAt: lease, lease });
    await settleResults(t.deps.db, log, {
      // 3 delivered as a result of its own (its supplier's refusal was cleared), the others as runs
      results: [{ h: h(3), set: sent }],
      now: Date.parse("2026-11-26T10:00:30.000Z"),
      delivered: new Map([
        ["HTTP 200", [[ids[0], ids[2], lease], [ids[4], ids[5], lease]]],
        ["HTTP 204", [[ids[6], ids[6], lease]]],
      ]),
    });
    const after = await t.deps.db.selectFrom("router_hooks").select(["status", "lastAnswer"]).orderBy("id")
      .execute();
    assertEquals(after.map((r) => `${r.status} ${r.lastAnswer}`), [
      "sent HTTP 200",
      "sent HTTP 200",
      "sent HTTP 200",
      "sent HTTP 200",
      "sent HTTP 200",
      "sending ",
      "sent HTTP 204",
    ]);
    const overrun = warnings.filter((w) => w.includes("outlived its lease"));
    assertEquals(overrun.length, 1, warnings.join("\n"));
    assert(overrun[0].includes(String(ids[5])), overrun[0]);
  } finally {
    await t.close();
  }
});
