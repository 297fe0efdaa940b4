// Frozen: never edit a migration that has shipped; add a new one.
// A group project's Paused or Closed stops its children: this table remembers which children the
// group stopped and the status each had before, so that reopening the group brings back exactly
// those (a child paused on its own stays paused). One row per child held by its group; the row goes
// when the group reopens it or when the child's own status is changed.
//
// Children a stopped group holds today are found in their system log: the status change logged
// last on the child reads "Status of P10009-01 changed from Live to Paused with its group P10009";
// the first of an unbroken run of such rows (Paused, then Closed, with the group) names the status
// the child had before. A child whose last status change was its own is not held.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

/** Status labels as the log spelled them when this migration was written. */
const STATUS_OF_LABEL: Record<string, number> = {
  "Live": 1,
  "Awarded": 2,
  "Paused": 3,
  "Ready To Invoice": 4,
  "Invoiced": 5,
  "Closed": 6,
  "Archieved": 7,
  "Waiting": 8,
  "Testing": 9,
};
/** Statuses that stop a group's children (Paused and beyond). */
const STOPPED = [3, 4, 5, 6, 7];
const WITH_GROUP = /^Status of .+ changed from (.+) to (.+) with its group \S+( \(revoked\))?$/;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE group_status_holds (
    projectId TEXT NOT NULL PRIMARY KEY,
    groupId TEXT NOT NULL,
    statusBefore INTEGER NOT NULL,
    createdAt TEXT NOT NULL
  ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX group_status_holds_group ON group_status_holds (groupId)`.execute(db);

  const children: { id: string; parentProjectId: string; projectStatus: number }[] = await db
    .selectFrom("projects as c")
    .innerJoin("projects as g", "g.id", "c.parentProjectId")
    .select(["c.id", "c.parentProjectId", "c.projectStatus"])
    .where("c.isDeleted", "=", 0).where("g.projectStatus", "in", STOPPED).where(
      "c.projectStatus",
      "in",
      STOPPED,
    )
    .execute();
  const now = new Date().toISOString();
  for (const c of children) {
    const logs: { activity: string }[] = await db.selectFrom("system_logs").select("activity")
      .where("recordId", "=", c.id).where("activity", "like", "Status of %")
      .orderBy("createdAt", "desc").orderBy("id", "desc").limit(20).execute();
    let before: number | undefined;
    for (const [i, l] of logs.entries()) {
      const m = WITH_GROUP.exec(l.activity);
      if (!m) break;
      // the last change must have left the child where it is now
      if (i === 0 && STATUS_OF_LABEL[m[2]] !== c.projectStatus) break;
      before = STATUS_OF_LABEL[m[1]];
    }
    if (before === undefined || STOPPED.includes(before) && before === c.projectStatus) continue;
    await db.insertInto("group_status_holds").values({
      projectId: c.id,
      groupId: c.parentProjectId,
      statusBefore: before,
      createdAt: now,
    }).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("group_status_holds").execute();
}
