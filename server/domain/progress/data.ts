/**
 * The figures of a project's progress report: completes against quota per child project and per
 * supplier, the last 14 days of traffic (router_daily), IR and conversion. The router counts on
 * child projects; a group project's figures are its children's.
 */
import type { Db } from "../../db/connection.ts";
import { notFound } from "../errors.ts";
import { PROJECT_TYPE, projectStatusLabel } from "../../../shared/status.ts";

export const PROGRESS_DAYS = 14;
const DAY = 86_400_000;

export type QuotaBar = { label: string; sublabel: string; complete: number; quota: number };
export type TrafficDay = { date: string; clicked: number; complete: number };

export type ProgressData = {
  projectId: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  statusLabel: string;
  isGroup: boolean;
  managerName: string;
  managerEmail: string;
  sampleSize: number;
  complete: number;
  clicked: number;
  terminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  /** complete / (complete + terminate), percent (null before any outcome). */
  ir: number | null;
  /** complete / clicked, percent (null before any click). */
  conversion: number | null;
  children: QuotaBar[];
  suppliers: QuotaBar[];
  days: TrafficDay[];
  generatedAt: string;
};

const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1000) / 10 : null);

/** The report's figures at `now` (the last 14 days end on now's UTC day). */
export async function progressData(db: Db, projectId: string, now: number): Promise<ProgressData> {
  const p = await db.selectFrom("projects as p").leftJoin("users as u", "u.id", "p.userId")
    .select([
      "p.id",
      "p.projectCode",
      "p.projectName",
      "p.projectStatus",
      "p.projectType",
      "p.sampleSize",
      "u.firstName",
      "u.lastName",
      "u.email",
    ])
    .where("p.id", "=", projectId).where("p.isDeleted", "=", 0).executeTakeFirst();
  if (!p) throw notFound("Project");
  const isGroup = p.projectType === PROJECT_TYPE.GROUP;
  const children = await db.selectFrom("projects")
    .select([
      "id",
      "projectCode",
      "projectName",
      "sampleSize",
      "clicked",
      "complete",
      "terminate",
      "overQuota",
      "qualityTerm",
      "drop",
    ])
    .where(isGroup ? "parentProjectId" : "id", "=", p.id).where("isDeleted", "=", 0)
    .orderBy("projectCode").execute();
  const ids = children.map((c) => c.id);
  const sum = (k: "clicked" | "complete" | "terminate" | "overQuota" | "qualityTerm" | "drop") =>
    children.reduce((n, c) => n + Number(c[k]), 0);

  const maps = ids.length
    ? await db.selectFrom("supplier_maps as m").leftJoin("suppliers as s", "s.id", "m.supplierId")
      .select(["m.supplierId", "s.supplierName", "m.complete", "m.supplierQuota"])
      .where("m.projectId", "in", ids).where("m.isDeleted", "=", 0).execute()
    : [];
  const bySupplier = new Map<string, QuotaBar>();
  for (const m of maps) {
    const bar = bySupplier.get(m.supplierId) ??
      { label: m.supplierName ?? "(removed supplier)", sublabel: "", complete: 0, quota: 0 };
    bar.complete += Number(m.complete);
    bar.quota += Number(m.supplierQuota);
    bySupplier.set(m.supplierId, bar);
  }

  const today = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate(),
  );
  const first = new Date(today - (PROGRESS_DAYS - 1) * DAY).toISOString().slice(0, 10);
  const daily = ids.length
    ? await db.selectFrom("router_daily")
      .select((
        eb,
      ) => ["date", eb.fn.sum<number>("clicked").as("clicked"), eb.fn.sum<number>("complete").as("complete")])
      .where("projectId", "in", ids).where("date", ">=", first).groupBy("date").execute()
    : [];
  const byDate = new Map(daily.map((d) => [d.date, d]));
  const days: TrafficDay[] = [];
  for (let i = PROGRESS_DAYS - 1; i >= 0; i--) {
    const date = new Date(today - i * DAY).toISOString().slice(0, 10);
    const d = byDate.get(date);
    days.push({ date, clicked: Number(d?.clicked ?? 0), complete: Number(d?.complete ?? 0) });
  }

  const complete = sum("complete"), clicked = sum("clicked"), terminate = sum("terminate");
  return {
    projectId: p.id,
    projectCode: p.projectCode,
    projectName: p.projectName,
    projectStatus: p.projectStatus,
    statusLabel: projectStatusLabel(p.projectStatus),
    isGroup,
    managerName: [p.firstName, p.lastName].filter(Boolean).join(" "),
    managerEmail: p.email ?? "",
    sampleSize: Number(p.sampleSize),
    complete,
    clicked,
    terminate,
    overQuota: sum("overQuota"),
    qualityTerm: sum("qualityTerm"),
    drop: sum("drop"),
    ir: pct(complete, complete + terminate),
    conversion: pct(complete, clicked),
    children: children.map((c) => ({
      label: c.projectCode,
      sublabel: c.projectName,
      complete: Number(c.complete),
      quota: Number(c.sampleSize),
    })),
    suppliers: [...bySupplier.values()].sort((a, b) =>
      b.complete - a.complete || a.label.localeCompare(b.label)
    ),
    days,
    generatedAt: new Date(now).toISOString(),
  };
}

/** A project's id by its code (the CLI names projects by code). */
export async function projectIdByCode(db: Db, code: string): Promise<string> {
  const p = await db.selectFrom("projects").select("id").where("projectCode", "=", code)
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!p) throw notFound("Project");
  return p.id;
}
