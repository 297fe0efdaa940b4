/**
 * Exclude/Include tab: respondents of other projects are kept out (or, with isExcluded off, only
 * they are let in) by their outcome there: complete, terminate, over quota, dropout.
 */
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { toRow } from "../../db/rows.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt, isoAt } from "./projects.ts";
import type { Exclusion } from "../../../shared/api/project-parts.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

const FLAGS = ["isExcluded", "complete", "terminate", "overQuota", "dropout"] as const;
export type ExclusionFlags = Partial<Record<(typeof FLAGS)[number], boolean>>;

export async function listExclusions(db: Db, projectId: string, search = ""): Promise<Exclusion[]> {
  let q = db.selectFrom("project_exclusions as e")
    .innerJoin("projects as x", "x.id", "e.excludedProjectId")
    .select([
      "e.id",
      "e.projectId",
      "e.excludedProjectId",
      "e.isExcluded",
      "e.complete",
      "e.terminate",
      "e.overQuota",
      "e.dropout",
      "e.createdAt",
      "x.projectCode",
      "x.projectName",
    ])
    .where("e.projectId", "=", projectId).where("e.isDeleted", "=", 0);
  if (search.trim()) {
    q = q.where((eb) =>
      eb.or([
        eb("x.projectCode", "like", `%${search.trim()}%`),
        eb("x.projectName", "like", `%${search.trim()}%`),
      ])
    );
  }
  const rows = await q.orderBy("e.createdAt").execute();
  return rows.map((r) => ({
    _id: r.id,
    projectId: r.projectId,
    excludedProjectId: r.excludedProjectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    isExcluded: !!r.isExcluded,
    complete: !!r.complete,
    terminate: !!r.terminate,
    overQuota: !!r.overQuota,
    dropout: !!r.dropout,
    createdAt: r.createdAt,
  }));
}

export async function addExclusion(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { projectId: string; excludedProjectId: string } & ExclusionFlags,
) {
  const { db, services, actor, now: clock } = ctx;
  const id = await db.transaction().execute(async (trx) => {
    if (input.projectId === input.excludedProjectId) {
      throw invalid("A project cannot exclude itself", [{
        path: "excludedProjectId",
        message: "A project cannot exclude itself",
      }]);
    }
    const [p, x] = await Promise.all(
      [input.projectId, input.excludedProjectId].map((id) =>
        trx.selectFrom("projects").select(["id", "projectCode"]).where("id", "=", id).where(
          "isDeleted",
          "=",
          0,
        ).executeTakeFirst()
      ),
    );
    if (!p) throw notFound("Project");
    if (!x) {
      throw invalid("Project is required", [{
        path: "excludedProjectId",
        message: "Project is required",
      }]);
    }
    const dup = await trx.selectFrom("project_exclusions").select("id").where("projectId", "=", p.id).where(
      "excludedProjectId",
      "=",
      x.id,
    )
      .where("isDeleted", "=", 0).executeTakeFirst();
    if (dup) throw conflict(`${x.projectCode} is already in the list`);
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(clock());
    await trx.insertInto("project_exclusions").values({
      id,
      projectId: p.id,
      excludedProjectId: x.id,
      ...toRow(Object.fromEntries(FLAGS.map((f) => [f, input[f] ?? true]))),
      createdAt: now,
      updatedAt: now,
    } as never).execute();
    await writeLog(trx, actor, {
      activity: `${
        input.isExcluded === false ? "Included" : "Excluded"
      } respondents of ${x.projectCode} on ${p.projectCode}`,
      module: "Projects",
      recordId: p.id,
    }, dateAt(clock));
    return id;
  });
  // the router applies exclusions from its cached settings: the next entry must see this one
  services.changes.project(input.projectId);
  return id;
}

export async function updateExclusion(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { id: string } & ExclusionFlags & { isDeleted?: true },
) {
  const { db, services, actor, now: clock } = ctx;
  const { id, ...patch } = input;
  const projectId = await db.transaction().execute(async (trx) => {
    const e = await trx.selectFrom("project_exclusions").selectAll().where("id", "=", id).where(
      "isDeleted",
      "=",
      0,
    ).executeTakeFirst();
    if (!e) throw notFound("Exclusion");
    const p = await trx.selectFrom("projects").select("projectCode").where("id", "=", e.projectId)
      .executeTakeFirstOrThrow();
    await trx.updateTable("project_exclusions").set({ ...toRow(patch), updatedAt: isoAt(clock) })
      .where("id", "=", id).execute();
    await writeLog(trx, actor, {
      activity: patch.isDeleted
        ? `Removed an exclusion from ${p.projectCode}`
        : `Changed exclusion flags on ${p.projectCode}`,
      module: "Projects",
      recordId: e.projectId,
    }, dateAt(clock));
    return e.projectId;
  });
  services.changes.project(projectId);
}
