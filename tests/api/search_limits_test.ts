/**
 * A search can never hold the server up: terms are bounded (400 past 100 characters) and the plan
 * of any accepted term costs a small constant, so the respondent router and /healthz keep answering.
 * Timings here are generous sanity bounds (1 s), not benchmarks.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { MAX_SEARCH } from "../../shared/list.ts";
import * as C from "../../shared/api/clients.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as SysLog from "../../shared/api/system-log.ts";
import * as Users from "../../shared/api/users.ts";

const ROWS = 4_000;

Deno.test("a worst-case search answers in well under a second while /healthz and /survey keep flowing", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const db = t.deps.db;
    const now = new Date().toISOString();
    // the worst rows the schemas allow: names of the longest length made of one repeated letter, so
    // every trigram of a repeated-letter term is in every row
    for (let i = 0; i < ROWS; i += 500) {
      const ids = Array.from(
        { length: Math.min(500, ROWS - i) },
        (_, j) => (i + j).toString(16).padStart(24, "0"),
      );
      await db.insertInto("users").values(ids.map((id, j) => ({
        id,
        firstName: "a".repeat(100),
        lastName: "a".repeat(99) + (j % 2 ? "b" : "a"),
        email: `${"a".repeat(60)}${i + j}@example.com`,
        phoneNumber: "",
        role: "ADMIN",
        supplierId: null,
        passwordHash: "x",
        isActive: 1,
        isDeleted: 0,
        createdAt: now,
        updatedAt: now,
      }))).execute();
      await db.insertInto("system_logs").values(ids.map((id) => ({
        id,
        createdAt: now,
        userId: null,
        name: "a".repeat(100),
        activity: `Updated user ${"a".repeat(100)} ${"a".repeat(100)}`,
        module: "Users",
        recordId: null,
        ipAddress: "1.2.3.4",
        device: "",
        city: "",
        country: "",
      }))).execute();
    }
    const terms = [
      "a".repeat(MAX_SEARCH),
      "a".repeat(MAX_SEARCH - 1) + "b",
      "a".repeat(12),
      "a".repeat(13),
      "ab".repeat(MAX_SEARCH / 2),
      "é".repeat(8),
      "é".repeat(MAX_SEARCH),
      "a".repeat(10_000),
      "a".repeat(60_000),
    ];
    let busy = true;
    let worstPing = 0;
    let pings = 0;
    const pinger = (async () => {
      while (busy) {
        const t0 = performance.now();
        const health = await t.app.request("/healthz");
        await health.body?.cancel();
        const survey = await t.app.request("/survey/start/000000000000000000000000?sid=x");
        await survey.body?.cancel();
        assertEquals(survey.status, 404);
        worstPing = Math.max(worstPing, performance.now() - t0);
        pings++;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    let worstSearch = 0;
    try {
      for (const call of [Users.listUsers, SysLog.systemLogCall, C.listClients, Proj.listProjects]) {
        for (const search of terms) {
          for (const extra of [{}, { count: "exact" }, { pageNo: 200 }]) {
            const t0 = performance.now();
            const r = await t.api(call, { token, bad: { search, ...extra } });
            const ms = performance.now() - t0;
            worstSearch = Math.max(worstSearch, ms);
            if (Deno.env.get("SHOW_SLOW") && ms > 50) {
              console.log(call.key, search.length, JSON.stringify(extra), ms.toFixed(0));
            }
            assert(ms < 1_000, `${call.key} search of ${search.length} characters took ${ms.toFixed(0)} ms`);
            assertEquals(
              r.status,
              search.length > MAX_SEARCH ? 400 : 200,
              `${call.key} ${search.length}: ${r.text}`,
            );
            if (r.status === 400) {
              assertEquals(r.json.message, `search must be at most ${MAX_SEARCH} characters`);
            }
            await new Promise((r) => setTimeout(r, 1));
          }
        }
      }
    } finally {
      busy = false;
      await pinger;
    }
    assert(pings > 0, "the router was asked meanwhile");
    assert(worstPing < 1_000, `/healthz and /survey waited ${worstPing.toFixed(0)} ms behind a search`);
    console.log(
      `worst search ${worstSearch.toFixed(0)} ms, worst ping ${worstPing.toFixed(0)} ms, ${pings} pings`,
    );
  } finally {
    await t.close();
  }
});
