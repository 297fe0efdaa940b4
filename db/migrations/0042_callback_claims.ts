// Frozen: never edit a migration that has shipped; add a new one.
// An outcome's callbacks are claimed at birth as one row per write batch (issue 23): the batch's
// callbacks as one JSON text under the sender's lease, in place of a router_hooks row each (a table
// row and three index entries written in the router's transaction, then rewritten when settled).
// The sender moves them into router_hooks once answered (sent, or queued for a retry); a claim whose
// lease lapsed (its sender died) is moved there queued by any sender's scan. No index: the table
// holds the callbacks on their way only.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("router_hook_claims")
    .addColumn("id", "integer", (c) => c.primaryKey())
    // the end of the lease (ISO time): until then only the sender that wrote it may settle it
    .addColumn("lease", "text", (c) => c.notNull())
    // JSON: [[sessionId, supplierId, url, event, hookKey, vars], ...], in the order of their slots
    .addColumn("rows", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("router_hook_claims").execute();
}
