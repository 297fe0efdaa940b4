/**
 * Project quotas (child edit, Project Quota tab): a qualification added to the project, the options
 * chosen from it, and a sample size per option. `completes` per option is kept by the router.
 */
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { getQualification } from "../library/qualifications.ts";
import { dateAt, isoAt } from "./projects.ts";
import { PROJECT_TYPE } from "../../../shared/status.ts";
import { parseJsonList } from "../common/records.ts";
import { cellGroups, isGroupedCell } from "../router/config.ts";
import type { ProjectQuota, QuotaCell } from "../../../shared/api/project-parts.ts";
import { counted } from "../../../shared/format.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

export type { QuotaCell };

async function projectOf(db: Db, projectId: string) {
  const p = await db.selectFrom("projects").select(["id", "projectCode", "sampleSize", "projectType"]).where(
    "id",
    "=",
    projectId,
  )
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!p) throw notFound("Project");
  return p;
}

const parseCells = (s: string): QuotaCell[] => {
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

/** Quotas of a project with the qualification's name and options, each with size, percent and completes. */
export async function listQuotas(db: Db, projectId: string): Promise<ProjectQuota[]> {
  const project = await projectOf(db, projectId);
  const rows = await db.selectFrom("project_quotas").selectAll().where("projectId", "=", projectId).where(
    "isDeleted",
    "=",
    0,
  )
    .orderBy("createdAt").execute();
  const out: ProjectQuota[] = [];
  for (const q of rows) {
    const cells = parseCells(q.quotaValue);
    const combined = parseJsonList<string>(q.qualificationIds);
    if (combined.length > 1 || cells.some(isGroupedCell)) {
      out.push(
        await providerQuota(
          db,
          q,
          combined.length > 1 ? combined : [q.qualificationId],
          cells,
          project.sampleSize,
        ),
      );
      continue;
    }
    const qual = await getQualification(db, q.qualificationId).catch(() => null);
    const options = (qual?.qualificationOptions ?? []).map((o) => {
      const cell = cells.find((c) => c.quotaOptionId === o._id);
      return {
        quotaOptionId: o._id,
        text: o.text,
        selected: !!cell,
        quotaSize: cell?.quotaSize ?? 0,
        completes: cell?.completes ?? 0,
        percent: project.sampleSize
          ? Math.round(((cell?.quotaSize ?? 0) / project.sampleSize) * 10_000) / 100
          : 0,
      };
    });
    const total = cells.reduce((s, c) => s + c.quotaSize, 0);
    out.push({
      _id: q.id,
      projectId,
      quotaId: {
        _id: q.qualificationId,
        qualificationName: qual?.qualificationName ?? "(deleted qualification)",
        qualificationOptions: qual?.qualificationOptions ?? [],
      },
      quotaValue: cells,
      options,
      total,
      sampleSize: project.sampleSize,
      totalMatchesSampleSize: total === project.sampleSize,
    });
  }
  return await withHolds(db, out);
}

/** Each cell's respondents in the client survey now (quota_cell_holds, kept by the router's writer). */
async function withHolds(db: Db, quotas: ProjectQuota[]): Promise<ProjectQuota[]> {
  if (!quotas.length) return quotas;
  const rows = await db.selectFrom("quota_cell_holds").select(["quotaId", "quotaOptionId", "held"])
    .where("quotaId", "in", quotas.map((q) => q._id)).where("held", "!=", 0).execute();
  const held = new Map(rows.map((r) => [`${r.quotaId}\u0000${r.quotaOptionId}`, r.held]));
  for (const q of quotas) {
    for (const o of q.options) o.held = held.get(`${q._id}\u0000${o.quotaOptionId}`) ?? 0;
  }
  return quotas;
}

/**
 * A quota an import made of cells over sets of options, as the quota screen shows it: named by its
 * qualifications ("Toluna: Gender x Age": a provider prefix they share is said once), one option per
 * cell, its text the options of each qualification ("Female x 18-24 or 25-34"; on one qualification
 * "18-24 or 25-34", one cell with one size for the set).
 */
async function providerQuota(
  db: Db,
  q: { id: string; projectId: string; qualificationId: string },
  qualificationIds: string[],
  cells: (QuotaCell & { options?: unknown })[],
  sampleSize: number,
): Promise<ProjectQuota> {
  const quals = await Promise.all(qualificationIds.map((id) => getQualification(db, id).catch(() => null)));
  const names = quals.map((x) => x?.qualificationName ?? "(deleted qualification)");
  const prefix = /^[^:]+: /.exec(names[0])?.[0] ?? "";
  const name = prefix && names.every((n) => n.startsWith(prefix))
    ? prefix + names.map((n) => n.slice(prefix.length)).join(" x ")
    : names.join(" x ");
  const all = quals.flatMap((x) => x?.qualificationOptions ?? []);
  const textOf = new Map(all.map((o) => [o._id, o.text]));
  const rank = new Map(all.map((o, i) => [o._id, i]));
  const total = cells.reduce((s, c) => s + c.quotaSize, 0);
  return {
    _id: q.id,
    projectId: q.projectId,
    quotaId: {
      _id: q.qualificationId,
      qualificationName: name,
      qualificationOptions: quals.length === 1 ? quals[0]?.qualificationOptions ?? [] : [],
    },
    quotaValue: cells.map(({ quotaOptionId, quotaSize, completes }) => ({
      quotaOptionId,
      quotaSize,
      completes,
    })),
    options: cells.map((c) => ({
      quotaOptionId: c.quotaOptionId,
      // a cell of one option (the Quota tab's) beside the provider's cells over sets of options
      text: (isGroupedCell(c) ? cellGroups(c) : [[c.quotaOptionId]]).map((g) =>
        [...g].sort((a, b) => (rank.get(a) ?? 1e9) - (rank.get(b) ?? 1e9))
          .map((id) => textOf.get(id) ?? "(deleted option)").join(" or ")
      ).join(" x "),
      selected: true,
      quotaSize: c.quotaSize,
      completes: c.completes ?? 0,
      percent: sampleSize ? Math.round((c.quotaSize / sampleSize) * 10_000) / 100 : 0,
    })),
    total,
    sampleSize,
    totalMatchesSampleSize: total === sampleSize,
    ...(names.length > 1 ? { interlocked: names } : { grouped: true }),
  };
}

export async function addQuota(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { projectId: string; qualificationId: string },
) {
  const { db, services, actor, now: clock } = ctx;
  const { projectId, qualificationId } = input;
  await db.transaction().execute(async (trx) => {
    const project = await projectOf(trx, projectId);
    if (project.projectType !== PROJECT_TYPE.CHILD) throw invalid("Quotas are set on child projects");
    const qual = await getQualification(trx, qualificationId).catch(() => null);
    if (!qual) {
      throw invalid("Qualification not found", [{ path: "quotaId", message: "Qualification not found" }]);
    }
    const dup = await trx.selectFrom("project_quotas").select("id").where("projectId", "=", projectId).where(
      "qualificationId",
      "=",
      qualificationId,
    )
      .where("qualificationIds", "=", "[]").where("isDeleted", "=", 0).executeTakeFirst();
    if (dup) throw conflict("This qualification already has a quota on the project");
    const at = dateAt(clock), now = at.toISOString();
    await trx.insertInto("project_quotas").values({
      id: newId(clock()),
      projectId,
      qualificationId,
      quotaValue: "[]",
      createdAt: now,
      updatedAt: now,
    })
      .execute();
    await writeLog(trx, actor, {
      activity: `Added quota ${qual.qualificationName} to ${project.projectCode}`,
      module: "Projects",
      recordId: projectId,
    }, dateAt(clock));
  });
  // the router matches pre-screen answers to the quota's options: it must see the change now
  services.changes.project(projectId);
  return listQuotas(db, projectId);
}

async function quotaOf(trx: Db, quotaId: string, projectId: string) {
  const q = await trx.selectFrom("project_quotas").selectAll().where("id", "=", quotaId).where(
    "projectId",
    "=",
    projectId,
  )
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!q) throw notFound("Quota");
  return q;
}

/** Chooses the options of a quota ({quotaOptionId: [...]}), keeping sizes of options still chosen; or deletes it. */
export async function updateQuota(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { quotaId: string; projectId: string } & { quotaOptionId?: string[]; isDeleted?: true },
) {
  const { db, services, actor, now: clock } = ctx;
  const { quotaId, projectId, ...patch } = input;
  await db.transaction().execute(async (trx) => {
    const project = await projectOf(trx, projectId);
    const q = await quotaOf(trx, quotaId, projectId);
    const at = dateAt(clock), now = at.toISOString();
    if (patch.isDeleted) {
      await trx.updateTable("project_quotas").set({ isDeleted: 1, updatedAt: now }).where("id", "=", quotaId)
        .execute();
      await writeLog(trx, actor, {
        activity: `Removed a quota from ${project.projectCode}`,
        module: "Projects",
        recordId: projectId,
      }, dateAt(clock));
      return;
    }
    if (parseJsonList<string>(q.qualificationIds).length > 1) {
      throw invalid(
        "An interlocked quota's combinations come from its provider: set their sizes or remove it",
        [{
          path: "quotaOptionId",
          message: "An interlocked quota's combinations come from its provider",
        }],
      );
    }
    if (parseCells(q.quotaValue).some(isGroupedCell)) {
      // choosing single options would split a cell over a set of answers into one limit per answer
      throw invalid(
        "This quota's cells each cover a set of options, as its provider set them: set their sizes or remove it",
        [{ path: "quotaOptionId", message: "This quota's cells each cover a set of options" }],
      );
    }
    const qual = await getQualification(trx, q.qualificationId);
    const valid = new Set(qual.qualificationOptions.map((o) => o._id));
    const chosen = [...new Set(patch.quotaOptionId ?? [])];
    const bad = chosen.find((id) => !valid.has(id));
    if (bad) {
      throw invalid("Unknown option for this qualification", [{
        path: "quotaOptionId",
        message: "Unknown option for this qualification",
      }]);
    }
    const cells = parseCells(q.quotaValue);
    const next = chosen.map((id) =>
      cells.find((c) => c.quotaOptionId === id) ?? { quotaOptionId: id, quotaSize: 0, completes: 0 }
    );
    await trx.updateTable("project_quotas").set({ quotaValue: JSON.stringify(next), updatedAt: now }).where(
      "id",
      "=",
      quotaId,
    ).execute();
    // the options added and removed, by their texts; choosing the same ones again logs nothing
    const optionText = new Map(qual.qualificationOptions.map((o) => [o._id, o.text]));
    const options = {
      label: "Options",
      kind: "list" as const,
      name: (_: Db, id: string) => Promise.resolve(optionText.get(id)),
    };
    const changes = await diffRecord(trx, { options }, { options: cells.map((c) => c.quotaOptionId) }, {
      options: next.map((c) => c.quotaOptionId),
    });
    await writeChanges(trx, actor, {
      head: `Chose ${
        counted(next.length, "option")
      } for quota ${qual.qualificationName} on ${project.projectCode}`,
      changes,
      module: "Projects",
      recordId: projectId,
    }, dateAt(clock));
  });
  services.changes.project(projectId);
  return listQuotas(db, projectId);
}

/** Sets the sample size per chosen option ({quotaValue: [{quotaOptionId, quotaSize}]}). */
export async function updateQuotaSizes(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { quotaId: string; projectId: string; values: { quotaOptionId: string; quotaSize: number }[] },
) {
  const { db, services, actor, now: clock } = ctx;
  const { quotaId, projectId, values } = input;
  await db.transaction().execute(async (trx) => {
    const project = await projectOf(trx, projectId);
    const q = await quotaOf(trx, quotaId, projectId);
    const cells = parseCells(q.quotaValue);
    for (const v of values) {
      const cell = cells.find((c) => c.quotaOptionId === v.quotaOptionId);
      if (!cell) {
        throw invalid("Choose the option before giving it a size", [{
          path: "quotaValue",
          message: "Choose the option before giving it a size",
        }]);
      }
      cell.quotaSize = v.quotaSize;
    }
    await trx.updateTable("project_quotas").set({
      quotaValue: JSON.stringify(cells),
      updatedAt: isoAt(clock),
    }).where("id", "=", quotaId)
      .execute();
    const total = cells.reduce((s, c) => s + c.quotaSize, 0);
    await writeLog(trx, actor, {
      activity: `Set quota sizes on ${project.projectCode} (total ${total} of ${project.sampleSize})`,
      module: "Projects",
      recordId: projectId,
    }, dateAt(clock));
  });
  services.changes.project(projectId);
  return listQuotas(db, projectId);
}
