// Frozen: never edit a migration that has shipped; add a new one.
// Signed supplier callbacks (issue 23, item 3): the router's approved hooks become the callback
// mechanism (one queue, router_hooks; one sender). A supplier gets a callback URL per event beside
// the complete's, which stays `supplierApprovedHook` (so an existing supplier's hook keeps working
// as its complete and approval callback, nothing to move). A queued callback knows its event and the
// values its URL and body are filled with when it is sent (the supplier's variable mapping and body
// template then apply); the delivery log reads a supplier's callbacks newest first. Every callback is
// signed under the supplier's hashKey: a supplier without one gets a random one here.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

const URL_COLUMNS = ["callbackTerminate", "callbackOverQuota", "callbackQualityTerm", "callbackReconcile"];

const randomHex = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

export async function up(db: AnyDb): Promise<void> {
  for (const c of URL_COLUMNS) {
    await db.schema.alterTable("suppliers").addColumn(c, "text", (col) => col.notNull().defaultTo(""))
      .execute();
  }
  await db.schema.alterTable("router_hooks").addColumn(
    "event",
    "text",
    (c) => c.notNull().defaultTo("complete"),
  )
    .execute();
  await db.schema.alterTable("router_hooks").addColumn("vars", "text").execute();
  await db.schema.alterTable("router_hooks").addColumn(
    "redeliveries",
    "integer",
    (c) => c.notNull().defaultTo(0),
  )
    .execute();
  // what the supplier's server last answered ("HTTP 200") or why no answer came; the delivery log shows it
  await db.schema.alterTable("router_hooks").addColumn("lastAnswer", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  // the reconcile approvals queued so far (`<uid>-a`)
  await sql`UPDATE router_hooks SET event = 'approved' WHERE hookKey LIKE '%-a'`.execute(db);
  await sql`CREATE INDEX router_hooks_supplier ON router_hooks(supplierId, id)`.execute(db);
  const keyless = await sql<{ id: string }>`SELECT id FROM suppliers WHERE trim(hashKey) = ''`.execute(db);
  for (const s of keyless.rows) {
    await sql`UPDATE suppliers SET hashKey = ${randomHex()} WHERE id = ${s.id}`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX router_hooks_supplier`.execute(db);
  for (const c of ["lastAnswer", "redeliveries", "vars", "event"]) {
    await db.schema.alterTable("router_hooks").dropColumn(c).execute();
  }
  for (const c of URL_COLUMNS) await db.schema.alterTable("suppliers").dropColumn(c).execute();
}
