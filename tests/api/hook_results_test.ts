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
import { CLAIM_SLOTS, hookIds, type HookRow } from "../../server/domain/router/callback-events.ts";
import { ClaimTally, firstClaimEnd, recoverClaims } from "../../server/domain/router/hook-claims.ts";

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
  // written in a claim (one row: its id): the claim, and each callback's slot in it
  const inClaim = batch();
  hookIds(inClaim, { lastId: 7n, count: 1n }, true);
  assertEquals(inClaim.map((h) => [h.claim, h.id]), [[7, 7 * CLAIM_SLOTS], [7, 7 * CLAIM_SLOTS + 1], [
    7,
    7 * CLAIM_SLOTS + 2,
  ]]);
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

/** A claim (router_hook_claims) of complete callbacks, one per key, under `lease`; its id. */
async function claim(t: Awaited<ReturnType<typeof testApp>>, keys: string[], lease: string) {
  const rows = keys.map((
    k,
  ) => [`s-${k}`, "sup", "https://panel.example/hook", "complete", `s-${k}-c`, `{"k":"${k}"}`]);
  const r = await t.deps.db.insertInto("router_hook_claims")
    .values({ lease, rows: JSON.stringify(rows), createdAt: AT }).returning("id").executeTakeFirstOrThrow();
  return Number(r.id);
}

Deno.test("hook results: delivered runs of claims and results of their own move the claimed callbacks into router_hooks in slot order; a claim is deleted once all of it is moved; a claim another sender took is left and logged", async () => {
  const t = await testApp();
  const warnings: string[] = [];
  const log = createLogger("warn", (line) => warnings.push(line));
  try {
    const lease = "2026-11-26T10:01:00.000Z";
    const one = await claim(t, ["0", "1", "2", "3", "4"], lease);
    const two = await claim(t, ["5", "6", "7"], lease);
    // a claim whose lease passed, taken over by another sender's scan (its row is gone)
    const gone = await claim(t, ["8"], lease);
    await t.deps.db.deleteFrom("router_hook_claims").where("id", "=", gone).execute();
    const id = (c: number, slot: number) => c * CLAIM_SLOTS + slot;
    const tally = new ClaimTally();
    tally.open(one, 5, Date.parse(lease));
    tally.open(two, 3, Date.parse(lease));
    const failed = {
      status: "queued" as const,
      attempts: 1,
      lastAnswer: "HTTP 503",
      lastError: "HTTP 503",
      nextAt: AT,
    };
    const fresh = (c: number, slot: number) => ({
      ...base,
      id: id(c, slot),
      claim: c,
      hookKey: "",
      nextAt: lease,
      lease,
    });
    await settleResults(t.deps.db, log, {
      // 3 answered 503 (a result of its own), the others delivered as runs
      results: [{ h: fresh(one, 3), set: failed }],
      now: Date.parse("2026-11-26T10:00:30.000Z"),
      delivered: new Map([
        ["HTTP 200", [[id(one, 0), id(one, 2), lease], [id(one, 4), id(one, 4), lease], [
          id(gone, 0),
          id(gone, 0),
          lease,
        ]]],
        ["HTTP 204", [[id(two, 0), id(two, 1), lease]]],
      ]),
      tally,
    });
    const rows = () =>
      t.deps.db.selectFrom("router_hooks").select([
        "hookKey",
        "status",
        "attempts",
        "lastAnswer",
        "nextAt",
        "vars",
      ])
        .orderBy("id").execute();
    assertEquals(
      (await rows()).map((r) => `${r.hookKey} ${r.status} ${r.attempts} ${r.lastAnswer} ${r.nextAt}`),
      [
        `s-0-c sent 1 HTTP 200 ${lease}`,
        `s-1-c sent 1 HTTP 200 ${lease}`,
        `s-2-c sent 1 HTTP 200 ${lease}`,
        `s-3-c queued 1 HTTP 503 ${AT}`,
        `s-4-c sent 1 HTTP 200 ${lease}`,
        `s-5-c sent 1 HTTP 204 ${lease}`,
        `s-6-c sent 1 HTTP 204 ${lease}`,
      ],
    );
    assertEquals((await rows())[0].vars, `{"k":"0"}`, "the values as they were written");
    const left = () => t.deps.db.selectFrom("router_hook_claims").select("id").execute();
    assertEquals((await left()).map((c) => Number(c.id)), [two], "the first claim is all moved: deleted");
    const overrun = warnings.filter((w) => w.includes("outlived their claim's lease"));
    assertEquals(overrun.length, 1, warnings.join("\n"));
    assert(overrun[0].includes(String(gone)), overrun[0]);

    // the last of the second claim: moved, and the claim deleted; under another lease nothing moves
    await settleResults(t.deps.db, log, {
      results: [],
      now: Date.parse("2026-11-26T10:00:31.000Z"),
      delivered: new Map([["HTTP 200", [[id(two, 2), id(two, 2), "2026-11-26T10:09:00.000Z"]]]]),
    });
    assertEquals((await rows()).length, 7, "a run under another lease than its claim's moves nothing");
    await settleResults(t.deps.db, log, {
      results: [],
      now: Date.parse("2026-11-26T10:00:31.000Z"),
      delivered: new Map([["HTTP 200", [[id(two, 2), id(two, 2), lease]]]]),
      tally,
    });
    assertEquals((await rows()).map((r) => r.hookKey).at(-1), "s-7-c");
    assertEquals(await left(), []);
    // a claim whose lease ended is forgotten: moving the rest of it never deletes it (a scan does)
    tally.open(99, 2, Date.parse(lease));
    tally.forget(Date.parse(lease) + 1);
    assertEquals(tally.moved(99, 2), false);
  } finally {
    await t.close();
  }
});

Deno.test("hook results: a claim whose lease passed is moved into router_hooks queued, those of it not there already, and deleted; one still held is left", async () => {
  const t = await testApp();
  const warnings: string[] = [];
  const log = createLogger("warn", (line) => warnings.push(line));
  try {
    const lapsed = await claim(t, ["a", "b", "c"], "2026-11-26T10:00:00.000Z");
    const held = await claim(t, ["d"], "2026-11-26T10:10:00.000Z");
    // b was answered and moved before its sender died
    await settleResults(t.deps.db, log, {
      results: [],
      now: Date.parse("2026-11-26T09:59:00.000Z"),
      delivered: new Map([["HTTP 200", [[
        lapsed * CLAIM_SLOTS + 1,
        lapsed * CLAIM_SLOTS + 1,
        "2026-11-26T10:00:00.000Z",
      ]]]]),
    });
    assertEquals(await firstClaimEnd(t.deps.db), Date.parse("2026-11-26T10:00:00.000Z"));
    const now = Date.parse("2026-11-26T10:00:00.001Z");
    assertEquals(await recoverClaims(t.deps.db, log, now), 2);
    const rows = await t.deps.db.selectFrom("router_hooks").select([
      "hookKey",
      "status",
      "attempts",
      "nextAt",
    ])
      .orderBy("id").execute();
    assertEquals(rows.map((r) => `${r.hookKey} ${r.status} ${r.attempts} ${r.nextAt}`), [
      "s-b-c sent 1 2026-11-26T10:00:00.000Z",
      `s-a-c queued 1 ${new Date(now).toISOString()}`,
      `s-c-c queued 1 ${new Date(now).toISOString()}`,
    ]);
    assertEquals(
      (await t.deps.db.selectFrom("router_hook_claims").select("id").execute()).map((c) => Number(c.id)),
      [held],
    );
    assert(warnings.some((w) => w.includes("s-a-c") && w.includes("s-c-c")), warnings.join("\n"));
    assertEquals(await recoverClaims(t.deps.db, log, now), 0, "nothing twice");
    assertEquals(await firstClaimEnd(t.deps.db), Date.parse("2026-11-26T10:10:00.000Z"));
  } finally {
    await t.close();
  }
});
