/**
 * Migration 0020: an import made before the fix split a provider quota over a set of answers into
 * one cell per answer, each with the whole limit; the migration makes it one strict cell over the
 * set, with the completes of its answers' cells, sized as the smallest, keeps answer cells another
 * provider quota names on its own, makes every cell a provider quota sizes strict (0 left: closed)
 * and leaves hand-made quotas alone.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";

Deno.test("migration 0020: a provider quota split per answer becomes one cell over the set", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0018_session_reconciles");
    await sql`PRAGMA foreign_keys = OFF`.execute(handle.db);
    const at = "2026-11-20T10:00:00.000Z";
    const quota = (id: string, cells: unknown[], qualificationIds = "[]") =>
      sql`INSERT INTO project_quotas (id, projectId, qualificationId, qualificationIds, quotaValue, createdAt, updatedAt)
        VALUES (${id}, 'p', ${`qual-${id}`}, ${qualificationIds}, ${JSON.stringify(cells)}, ${at}, ${at})`
        .execute(handle.db);
    // Age: "18-24 or 25-34" (235) was cells a and b of 235 each (9 and 4 completes; b resized to
    // 4 + 227 by a refresh); 35-44 its own quota
    await quota("age", [
      { quotaOptionId: "a", quotaSize: 235, completes: 9 },
      { quotaOptionId: "b", quotaSize: 231, completes: 4 },
      { quotaOptionId: "c", quotaSize: 100, completes: 1 },
    ]);
    const inter = [{ quotaOptionId: "m+a|b", quotaSize: 5, completes: 2, options: [["m"], ["a", "b"]] }];
    await quota("gxa", inter, '["g","age"]');
    const handMade = [{ quotaOptionId: "x", quotaSize: 0, completes: 0 }];
    await quota("hand", handMade);
    const map = [
      { quotaId: "Q1", projectQuotaId: "age", optionIds: ["b", "a"] },
      { quotaId: "Q2", projectQuotaId: "age", optionIds: ["c"] },
      { quotaId: "Q3", projectQuotaId: "gxa", optionIds: ["m+a|b"] },
    ];
    await sql`INSERT INTO offer_imports (id, provider, surveyId, groupProjectId, projectId, title, quotaMap, createdAt, updatedAt)
      VALUES ('i1', 'toluna', '77', 'g', 'p', 'Survey', ${JSON.stringify(map)}, ${at}, ${at})`.execute(
      handle.db,
    );

    await to("0020_provider_quota_sets");
    const value = async (id: string) =>
      JSON.parse(
        (await sql<{ quotaValue: string }>`SELECT quotaValue FROM project_quotas WHERE id = ${id}`.execute(
          handle.db,
        )).rows[0].quotaValue,
      );
    assertEquals(await value("age"), [
      { quotaOptionId: "c", quotaSize: 100, completes: 1, strict: true },
      // the 13 counted stay; the set takes 231 at most, no longer 235 + 231
      { quotaOptionId: "a|b", quotaSize: 231, completes: 13, options: [["a", "b"]], strict: true },
    ]);
    assertEquals(await value("gxa"), inter.map((c) => ({ ...c, strict: true })));
    assertEquals(await value("hand"), handMade);
    const after = await sql<{ quotaMap: string }>`SELECT quotaMap FROM offer_imports WHERE id = 'i1'`.execute(
      handle.db,
    );
    assertEquals(JSON.parse(after.rows[0].quotaMap).map((l: { optionIds: string[] }) => l.optionIds), [
      ["a|b"],
      ["c"],
      ["m+a|b"],
    ]);
  } finally {
    await handle.close();
  }
});
