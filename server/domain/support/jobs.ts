/**
 * Scheduled jobs (Support > Scheduled Jobs): a job watches one project every `interval` minutes
 * (scheduler.ts runs it). Add, edit, the Soft and Status toggles and a soft delete each write a
 * system log row. A job belongs to a project that exists; its first run is one interval after it is
 * added (or switched on, or its interval changed).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { type AnyQB, isTruthyFlag, listSpecOf } from "../../db/list.ts";
import { invalid, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import type { Deleted } from "../../../shared/api/contract.ts";
import { type JobRunStatus, jobsList, type ScheduledJob } from "../../../shared/api/support.ts";
import type { JobForm, JobPatch } from "../../../shared/schemas/support.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import { JOB_FIELDS } from "../audit/fields.ts";
import type { WriteCtx } from "../ctx.ts";

export const MODULE = "Scheduled Jobs";
type Clock = () => number;
const MINUTE = 60_000;

export function jobsQuery(db: Db): AnyQB {
  return db.selectFrom("scheduled_jobs as j")
    .innerJoin("projects as p", "p.id", "j.projectId")
    .leftJoin("users as u", "u.id", "j.createdBy")
    .select([
      "j.id",
      "j.projectId",
      "j.interval",
      "j.comment",
      "j.isSoft",
      "j.isActive",
      "j.createdAt",
      "j.createdBy",
      "j.nextRunAt",
      "j.lastRunAt",
      "j.lastStatus",
      "j.lastOutcome",
      "j.runs",
      "p.projectCode",
      "p.projectName",
      "p.projectStatus",
      sql<string | null>`u.firstName || ' ' || u.lastName`.as("fullName"),
    ])
    .where("j.isDeleted", "=", 0);
}

type JobRow = {
  id: string;
  projectId: string;
  interval: number;
  comment: string;
  isSoft: number;
  isActive: number;
  createdAt: string;
  createdBy: string | null;
  nextRunAt: string;
  lastRunAt: string | null;
  lastStatus: string;
  lastOutcome: string;
  runs: number;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  fullName: string | null;
};

export function jobRecord(r: JobRow): ScheduledJob {
  return {
    _id: r.id,
    projectId: r.projectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    projectStatus: r.projectStatus,
    interval: r.interval,
    comment: r.comment,
    isSoft: !!r.isSoft,
    isActive: !!r.isActive,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    fullName: r.fullName ?? "",
    nextRunAt: r.nextRunAt,
    lastRunAt: r.lastRunAt,
    lastStatus: r.lastStatus as JobRunStatus,
    lastOutcome: r.lastOutcome,
    runs: Number(r.runs),
  };
}

export const jobsListSpec = listSpecOf(jobsList, {
  search: ["p.projectCode", "p.projectName", "j.comment"],
  filters: { isSoft: (qb, val) => qb.where("j.isSoft", "=", isTruthyFlag(val) ? 1 : 0) },
  status: (qb, val) => qb.where("j.isActive", "=", isTruthyFlag(val) ? 1 : 0),
  sorts: {
    createdAt: "j.createdAt",
    projectCode: "p.projectCode",
    interval: "j.interval",
    lastRunAt: "j.lastRunAt",
  },
  defaultSort: [["j.createdAt", "desc"], ["j.id", "desc"]],
  rowid: "j.rowid",
});

export async function getJob(db: Db, id: string): Promise<ScheduledJob> {
  const row = await jobsQuery(db).where("j.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Scheduled job");
  return jobRecord(row as JobRow);
}

async function projectByCode(db: Db, code: string) {
  const p = await db.selectFrom("projects").select(["id", "projectCode"])
    .where("projectCode", "=", code).where("isDeleted", "=", 0).executeTakeFirst();
  if (!p) {
    const message = `No project with code ${code}`;
    throw invalid(message, [{ path: "projectCode", message }]);
  }
  return p;
}

const describe = (f: { interval: number; isSoft: boolean }, code: string) =>
  `${f.isSoft ? "soft " : ""}job on ${code} every ${f.interval} minutes`;

export async function addJob(
  ctx: WriteCtx,
  form: JobForm,
): Promise<ScheduledJob> {
  const { db, actor, now } = ctx;
  const id = await db.transaction().execute(async (trx) => {
    const p = await projectByCode(trx, form.projectCode);
    const at = now(), stamp = new Date(at).toISOString();
    const id = newId(at);
    await trx.insertInto("scheduled_jobs").values({
      id,
      projectId: p.id,
      interval: form.interval,
      comment: form.comment,
      isSoft: form.isSoft ? 1 : 0,
      isActive: form.isActive ? 1 : 0,
      createdBy: actor.userId,
      createdAt: stamp,
      updatedAt: stamp,
      nextRunAt: new Date(at + form.interval * MINUTE).toISOString(),
    }).execute();
    await writeLog(trx, actor, {
      activity: `Added ${describe(form, p.projectCode)}`,
      module: MODULE,
      recordId: id,
    }, new Date(at));
    return id;
  });
  return await getJob(db, id);
}

export type JobUpdateOutcome = "saved" | "activated" | "deactivated" | "soft" | "hard" | "deleted";

export async function updateJob(
  ctx: WriteCtx,
  args: { id: string } & (JobPatch | JobForm),
): Promise<{ record: ScheduledJob | Deleted; outcome: JobUpdateOutcome }> {
  const { db, actor, now } = ctx;
  const { id, ...input } = args;
  const outcome = await db.transaction().execute(async (trx) => {
    const job = await trx.selectFrom("scheduled_jobs as j").innerJoin("projects as p", "p.id", "j.projectId")
      .select(["j.id", "j.interval", "j.isActive", "j.isSoft", "j.comment", "j.projectId", "p.projectCode"])
      .where("j.id", "=", id).where("j.isDeleted", "=", 0).executeTakeFirst();
    if (!job) throw notFound("Scheduled job");
    const at = now(), stamp = new Date(at).toISOString();
    const log = (activity: string) =>
      writeLog(trx, actor, { activity, module: MODULE, recordId: id }, new Date(at));
    const label = `job on ${job.projectCode}`;
    const due = (interval: number) => new Date(at + interval * MINUTE).toISOString();
    if ("isDeleted" in input) {
      await trx.updateTable("scheduled_jobs").set({ isDeleted: 1, updatedAt: stamp }).where("id", "=", id)
        .execute();
      await log(`Deleted ${label}`);
      return "deleted" as const;
    }
    if (!("projectCode" in input) && "isActive" in input) {
      // switched on: its next run is one interval away, not at once for every tick it missed
      await trx.updateTable("scheduled_jobs").set({
        isActive: input.isActive ? 1 : 0,
        updatedAt: stamp,
        ...(input.isActive && !job.isActive ? { nextRunAt: due(job.interval) } : {}),
      }).where("id", "=", id).execute();
      await log(`${input.isActive ? "Activated" : "Deactivated"} ${label}`);
      return input.isActive ? "activated" as const : "deactivated" as const;
    }
    if (!("projectCode" in input) && "isSoft" in input) {
      await trx.updateTable("scheduled_jobs").set({ isSoft: input.isSoft ? 1 : 0, updatedAt: stamp })
        .where("id", "=", id).execute();
      await log(`Made ${label} ${input.isSoft ? "soft" : "not soft"}`);
      return input.isSoft ? "soft" as const : "hard" as const;
    }
    const form = input as JobForm;
    const p = await projectByCode(trx, form.projectCode);
    const reschedule = form.interval !== job.interval || (form.isActive && !job.isActive);
    await trx.updateTable("scheduled_jobs").set({
      projectId: p.id,
      interval: form.interval,
      comment: form.comment,
      isSoft: form.isSoft ? 1 : 0,
      isActive: form.isActive ? 1 : 0,
      updatedAt: stamp,
      ...(reschedule ? { nextRunAt: due(form.interval) } : {}),
    }).where("id", "=", id).execute();
    await writeChanges(trx, actor, {
      head: `Updated ${describe(form, p.projectCode)}`,
      changes: await diffRecord(trx, JOB_FIELDS, job, { projectId: p.id, ...form }),
      module: MODULE,
      recordId: id,
    }, new Date(at));
    return "saved" as const;
  });
  if (outcome === "deleted") return { record: { _id: id, isDeleted: true }, outcome };
  return { record: await getJob(db, id), outcome };
}

export const JOB_MESSAGES: Record<JobUpdateOutcome, string> = {
  saved: "Scheduled job updated successfully",
  activated: "Scheduled job activated successfully",
  deactivated: "Scheduled job deactivated successfully",
  soft: "Scheduled job set to soft successfully",
  hard: "Scheduled job set to not soft successfully",
  deleted: "Scheduled job deleted successfully",
};
