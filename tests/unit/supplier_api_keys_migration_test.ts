/**
 * Migration 0032: each supplier's existing `supplierApiKey` becomes its first API key, stored as its
 * SHA-256 (never the key) and named "Migrated key"; the key a panel already holds keeps working.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";
import { authenticateSupplierKey, hashApiKey } from "../../server/domain/suppliers/api-keys.ts";

Deno.test("migration 0032: a supplier's supplierApiKey becomes its first key, hashed", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0031_audit_changes");
    const at = "2026-03-04T05:06:07.000Z";
    const supplier = (id: string, code: string, key: string, active = 1) =>
      sql`INSERT INTO suppliers (id, supplierType, supplierName, supplierShortCode, supplierEmail, countryId,
          supplierRuleCPI, supplierApiKey, isActive, createdAt, updatedAt)
        VALUES (${id}, 1, ${`Panel ${code}`}, ${code}, 'p@panel.example', 'GB', '1', ${key}, ${active}, ${at}, ${at})`
        .execute(handle.db);
    await supplier("a".repeat(24), "PA", "0123456789abcdef0123456789abcdef0123456789abcdef");
    await supplier("b".repeat(24), "PB", "fedcba9876543210fedcba9876543210fedcba9876543210", 0);

    await to("0032_supplier_api_keys");
    const rows = await handle.db.selectFrom("supplier_api_keys").selectAll().orderBy("supplierId").execute();
    assertEquals(rows.map((r) => [r.supplierId, r.name, r.prefix, r.keyHash, r.createdAt, r.revokedAt]), [
      [
        "a".repeat(24),
        "Migrated key",
        "01234567",
        hashApiKey("0123456789abcdef0123456789abcdef0123456789abcdef"),
        at,
        null,
      ],
      [
        "b".repeat(24),
        "Migrated key",
        "fedcba98",
        hashApiKey("fedcba9876543210fedcba9876543210fedcba9876543210"),
        at,
        null,
      ],
    ]);
    const ctx = { db: handle.db, now: () => Date.parse("2026-11-26T10:00:00.000Z") };
    const ok = await authenticateSupplierKey(ctx, "0123456789abcdef0123456789abcdef0123456789abcdef");
    assertEquals(ok.ok && ok.supplier.supplierShortCode, "PA");
    // the inactive supplier's migrated key exists but is refused
    assertEquals(
      await authenticateSupplierKey(ctx, "fedcba9876543210fedcba9876543210fedcba9876543210"),
      { ok: false, refusal: "supplierInactive" },
    );
    await to("0031_audit_changes");
  } finally {
    await handle.close();
  }
});
