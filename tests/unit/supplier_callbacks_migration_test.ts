/**
 * Migration 0036: a supplier without a hash key gets a random one (callbacks are never unsigned), one
 * with a key keeps it; queued reconcile approvals are labelled `approved`, the complete hooks
 * `complete`; an existing approved hook keeps being the complete callback URL.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";

Deno.test("migration 0036: empty hash keys filled, kept ones kept; queued hooks get their event", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0033_member_profiles");
    const at = "2026-03-04T05:06:07.000Z";
    const supplier = (id: string, code: string, hashKey: string) =>
      sql`INSERT INTO suppliers (id, supplierType, supplierName, supplierShortCode, supplierEmail, countryId,
          supplierRuleCPI, supplierApiKey, hashKey, supplierApprovedHook, isActive, createdAt, updatedAt)
        VALUES (${id}, 1, ${`Panel ${code}`}, ${code}, 'p@panel.example', 'GB', '1', ${`key-${code}`}, ${hashKey},
          'https://panel.example/c?k=[key]', 1, ${at}, ${at})`.execute(handle.db);
    await supplier("a".repeat(24), "PA", "");
    await supplier("b".repeat(24), "PB", "kept-secret");
    await supplier("c".repeat(24), "PC", "  ");
    const hook = (key: string | null) =>
      sql`INSERT INTO router_hooks (sessionId, supplierId, url, nextAt, createdAt, updatedAt, hookKey)
        VALUES ('u1', ${"a".repeat(24)}, 'https://panel.example/c', ${at}, ${at}, ${at}, ${key})`.execute(
        handle.db,
      );
    await hook(null);
    await hook("u1-a");

    await to("0036_supplier_callbacks");
    const rows = await handle.db.selectFrom("suppliers").select([
      "supplierShortCode",
      "hashKey",
      "supplierApprovedHook",
      "callbackTerminate",
      "callbackReconcile",
    ]).orderBy("supplierShortCode").execute();
    assertMatch(rows[0].hashKey, /^[0-9a-f]{64}$/);
    assertEquals(rows[1].hashKey, "kept-secret");
    assertMatch(rows[2].hashKey, /^[0-9a-f]{64}$/);
    assertEquals(rows[0].hashKey === rows[2].hashKey, false, "each its own key");
    assertEquals(rows.map((r) => [r.supplierApprovedHook, r.callbackTerminate, r.callbackReconcile])[0], [
      "https://panel.example/c?k=[key]",
      "",
      "",
    ]);
    const hooks = await handle.db.selectFrom("router_hooks").select([
      "hookKey",
      "event",
      "vars",
      "lastAnswer",
    ])
      .orderBy("id").execute();
    assertEquals(hooks, [
      { hookKey: null, event: "complete", vars: null, lastAnswer: "" },
      { hookKey: "u1-a", event: "approved", vars: null, lastAnswer: "" },
    ]);
  } finally {
    await handle.close();
  }
});
