/**
 * What the project modules share: reading a project, who is
 * calling (and by which clock), and the checks on client, manager and targeting. Creating lives in
 * create.ts, editing in update.ts, status rules in status.ts, cloning in clone.ts. Every change
 * writes a system log row with the project id, which the project Logs dialog reads.
 */
import type { ProjectDetail } from "../../../shared/api/projects.ts";
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { invalid, notFound } from "../errors.ts";
import { MSG, requiredMsg } from "../../../shared/messages.ts";
import type { Role } from "../../../shared/roles.ts";
import type { Actor } from "../audit/log.ts";
import type { WriteCtx } from "../ctx.ts";
import { projectRecord } from "./serialize.ts";
import { countryByCode } from "../lookups/geo.ts";
import { languageByCode } from "../lookups/languages.ts";
import { currencyByCode } from "../lookups/currencies.ts";
import { parseChanges } from "../../../shared/audit.ts";

export const MODULE = "Projects";

/** The clock helpers live in common/clock.ts; re-exported so the project modules keep their imports. */
export { type Clock, dateAt, isoAt } from "../common/clock.ts";

export type Caller = { actor: Actor; userId: string; role: Role };
/**
 * A project write's context: the database, the clock and the caller (who acts in the log, and the
 * user and role the rules look at: a manager's projects are their own).
 */
export type CallerCtx = WriteCtx & Caller;

export async function assertClient(db: Db, clientId: string) {
  const c = await db.selectFrom("clients").select("id").where("id", "=", clientId).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!c) throw invalid(MSG.clientRequired, [{ path: "clientId", message: MSG.clientRequired }]);
}

export async function assertManager(db: Db, userId: string) {
  const u = await db.selectFrom("users").select("id").where("id", "=", userId).where("isDeleted", "=", 0)
    .where("role", "!=", "SUPPLIER").executeTakeFirst();
  if (!u) throw invalid(MSG.managerRequired, [{ path: "userId", message: MSG.managerRequired }]);
}

type Targeting = { countryId?: string; languageId?: string; currencyId?: string };
export const TARGETING_MESSAGES = {
  countryId: requiredMsg("Country"),
  languageId: MSG.languageRequired,
  currencyId: requiredMsg("Currency"),
};

/**
 * The country, language and currency given must be entries of their lookups (the schemas check only
 * their shape); each unknown one is reported on its field, all at once. Returns the codes as the
 * lookups spell them ("us" is US), leaving absent ones absent.
 */
export function checkTargeting<T extends Targeting>(input: T, messages = TARGETING_MESSAGES): T {
  const lookups = {
    countryId: (c: string) => countryByCode(c)?.code,
    languageId: (c: string) => languageByCode(c)?._id,
    currencyId: (c: string) => currencyByCode(c)?._id,
  };
  const out: T = { ...input };
  const errors: { path: string; message: string }[] = [];
  for (const key of ["countryId", "languageId", "currencyId"] as const) {
    const given = input[key];
    if (given === undefined) continue;
    const known = lookups[key](given);
    if (known) out[key] = known;
    else errors.push({ path: key, message: messages[key] });
  }
  if (errors.length) throw invalid(errors[0].message, errors);
  return out;
}

/** The project with client and manager names; deleted projects are not found. */
export async function getProject(db: Db, id: string): Promise<ProjectDetail> {
  const row = await db.selectFrom("projects")
    .leftJoin("clients", "clients.id", "projects.clientId")
    .leftJoin("users", "users.id", "projects.userId")
    .selectAll("projects")
    .select([
      "clients.clientName as clientName",
      sql<string>`users.firstName || ' ' || users.lastName`.as("managerName"),
    ])
    .where("projects.id", "=", id).where("projects.isDeleted", "=", 0)
    .executeTakeFirst();
  if (!row) throw notFound("Project");
  const record = projectRecord(row);
  const [q, s] = await Promise.all([
    db.selectFrom("questions").select(sql<number>`count(*)`.as("n")).where("projectId", "=", id).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst(),
    db.selectFrom("supplier_maps").select(sql<number>`count(*)`.as("n")).where("projectId", "=", id).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst(),
  ]);
  const links = row.isMultiLinkUrl
    ? await db.selectFrom("project_links").select(sql<number>`count(*)`.as("n")).where("projectId", "=", id)
      .executeTakeFirst()
    : null;
  return {
    ...record,
    questionCount: Number(q?.n ?? 0),
    supplierCount: Number(s?.n ?? 0),
    multiLinkCount: Number(links?.n ?? 0),
  };
}

/** The Logs dialog: the project's own log rows, newest first. */
export async function projectLogs(db: Db, projectId: string, limit = 200) {
  const rows = await db.selectFrom("system_logs")
    .select(["id", "name", "activity", "createdAt", "module", "changes"])
    .where("recordId", "=", projectId).orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit)
    .execute();
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    activity: r.activity,
    createdAt: r.createdAt,
    module: r.module,
    changes: parseChanges(r.changes),
  }));
}
