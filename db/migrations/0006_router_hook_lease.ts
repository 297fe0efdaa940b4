// Frozen: never edit a migration that has shipped; add a new one.
// Approved hooks are claimed before they are sent (status 'sending', nextAt = the claim's lease), so
// app instances sharing the database never send one twice, and a claim whose sender died is due
// again when its lease runs out. The due-hooks index covers both states the senders look for.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`DROP INDEX router_hooks_due`.execute(db);
  await sql`CREATE INDEX router_hooks_due ON router_hooks(nextAt) WHERE status IN ('queued', 'sending')`
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX router_hooks_due`.execute(db);
  await sql`CREATE INDEX router_hooks_due ON router_hooks(nextAt) WHERE status = 'queued'`.execute(db);
}
