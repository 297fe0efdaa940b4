/** server/domain/audit/log.ts: every log row stays small whatever a change names. */
import { assertEquals } from "../helpers/assert.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { clip, LOG_MAX, writeLog } from "../../server/domain/audit/log.ts";

Deno.test("system log: long names, activities and devices are clipped to the log's bounds", async () => {
  const handle = await openDatabase(":memory:");
  try {
    await migrateToLatest(handle.db);
    const huge = "x".repeat(1_000_000);
    await writeLog(handle.db, { userId: null, name: huge, device: huge, ipAddress: huge, city: huge }, {
      activity: `Updated client ${huge}`,
      module: "Clients",
    });
    const row = await handle.db.selectFrom("system_logs").selectAll().executeTakeFirstOrThrow();
    assertEquals(
      [row.name.length, row.activity.length, row.device.length, row.ipAddress.length, row.city.length],
      [LOG_MAX.name, LOG_MAX.activity, LOG_MAX.device, LOG_MAX.ipAddress, LOG_MAX.place],
    );
    assertEquals(row.activity.endsWith("…"), true);
    assertEquals(row.module, "Clients");
    assertEquals(clip("short", 10), "short");
    assertEquals(clip("😀".repeat(5), 3), "😀😀…", "never half a character");
  } finally {
    await handle.close();
  }
});
