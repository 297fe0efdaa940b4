/**
 * The project tabs of Accounts: Ready To Invoice (status 4) and Archieved (status 7), read by
 * status (shared/status.ts); and the manual project entered for invoicing (part 2, 5 "Manual
 * project"). Proceed to Invoice and Archieve themselves are the projects area's status actions.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import {
  type AccountProjectRow,
  archievedList,
  type ManualProjectRecord,
  readyToInvoiceList,
} from "../../../shared/api/accounts.ts";
import type { ManualProjectForm } from "../../../shared/schemas/accounts.ts";
import {
  PROJECT_STATUS,
  PROJECT_TYPE,
  type ProjectStatus,
  projectStatusLabel,
} from "../../../shared/status.ts";
import { conflict, invalid } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import { dateAt } from "../common/clock.ts";
import { MODULE as PROJECTS_MODULE } from "../projects/projects.ts";
import { chunks, defaultLine, projectFigures } from "./invoice-projects.ts";
import { inIds } from "./refs.ts";
import { MSG } from "../../../shared/messages.ts";

/** Group projects in one status, with their client's name. */
export function accountProjectsQuery(db: Db, status: ProjectStatus): AnyQB {
  return db.selectFrom("projects")
    .leftJoin("clients", "clients.id", "projects.clientId")
    .select([
      "projects.id",
      "projects.projectCode",
      "projects.projectName",
      "projects.clientId",
      "projects.userId",
      "projects.cpi",
      "projects.poNumber",
      "projects.projectStatus",
      "projects.createdAt",
      "clients.clientName as clientName",
    ])
    .where("projects.projectType", "=", PROJECT_TYPE.GROUP)
    .where("projects.isDeleted", "=", 0)
    .where("projects.projectStatus", "=", status);
}

const spec = (decl: typeof readyToInvoiceList | typeof archievedList) =>
  listSpecOf(decl, {
    searchWhere: (qb, pattern) =>
      qb.where((eb) =>
        eb.or([
          eb("projects.projectCode", "like", sql<string>`${pattern} escape '\\'`),
          eb("projects.projectName", "like", sql<string>`${pattern} escape '\\'`),
          eb("clients.clientName", "like", sql<string>`${pattern} escape '\\'`),
          eb("projects.poNumber", "like", sql<string>`${pattern} escape '\\'`),
        ])
      ),
    multiSearch: ["projects.projectCode"],
    filters: { clientId: inIds("projects.clientId"), userId: inIds("projects.userId") },
    sorts: { projectCode: "projects.projectCode", createdAt: "projects.createdAt" },
    defaultSort: [["projects.createdAt", "desc"], ["projects.id", "desc"]],
    rowid: "projects.rowid",
  });
export const readyToInvoiceSpec = spec(readyToInvoiceList);
export const archievedSpec = spec(archievedList);

type Row = {
  id: string;
  projectCode: string;
  projectName: string;
  clientId: string;
  userId: string | null;
  cpi: number;
  poNumber: string;
  projectStatus: number;
  createdAt: string;
  clientName: string | null;
};

export const accountProjectMap = (row: never): AccountProjectRow => {
  const r = row as Row;
  return {
    _id: r.id,
    projectCode: r.projectCode,
    projectName: r.projectName,
    clientId: r.clientId,
    clientName: r.clientName ?? "",
    userId: r.userId,
    complete: 0,
    approved: 0,
    sampleSize: 0,
    cpi: r.cpi,
    poNumber: r.poNumber,
    projectStatus: r.projectStatus as ProjectStatus,
    projectStatusLabel: projectStatusLabel(r.projectStatus),
    invoiceId: null,
    invoiceCode: "",
    dueDate: null,
    recievedDate: null,
    referenceNo: "",
    total: 0,
    createdAt: r.createdAt,
  };
};

/** Adds one page's figures (summed over children) and the invoice each project is on. */
export async function enrichAccountProjects(db: Db, rows: AccountProjectRow[]): Promise<AccountProjectRow[]> {
  if (!rows.length) return rows;
  const ids = rows.map((r) => r._id);
  const figures = await projectFigures(db, ids);
  const lines = new Map<
    string,
    {
      invoiceId: string;
      invoiceCode: string;
      dueDate: string;
      recievedDate: string | null;
      referenceNo: string;
      total: number;
    }
  >();
  for (const part of chunks(ids, 500)) {
    const found = await db.selectFrom("invoice_lines as l").innerJoin("invoices as i", "i.id", "l.invoiceId")
      .select([
        "l.projectId",
        "i.id as invoiceId",
        "i.invoiceCode",
        "i.dueDate",
        "i.recievedDate",
        "i.referenceNo",
        "l.total",
      ])
      .where("l.projectId", "in", part).where("i.isDeleted", "=", 0).execute();
    for (const f of found) lines.set(f.projectId!, f);
  }
  return rows.map((r) => {
    const f = figures.get(r._id);
    const line = defaultLine(r, f);
    const inv = lines.get(r._id);
    return {
      ...r,
      complete: f?.complete ?? 0,
      approved: f?.approved ?? 0,
      sampleSize: f?.sampleSize ?? 0,
      cpi: line.cpi,
      total: inv ? inv.total : line.total,
      invoiceId: inv?.invoiceId ?? null,
      invoiceCode: inv?.invoiceCode ?? "",
      dueDate: inv?.dueDate ?? null,
      recievedDate: inv?.recievedDate ?? null,
      referenceNo: inv?.referenceNo ?? "",
    };
  });
}

/**
 * POST /admin/invoice/manual/add: a project entered by hand (work done outside the router): a group
 * project with its CPI, and its completes kept beside it (not in the router's counters, which
 * sessions back). Its code is the one typed, and must be free.
 */
export async function createManualProject(
  ctx: WriteCtx & Pick<Ctx, "services">,
  form: ManualProjectForm,
): Promise<ManualProjectRecord> {
  const { db, actor, services } = ctx;
  const now = dateAt(ctx.now);
  const stamp = now.toISOString();
  const id = newId(now.getTime());
  const code = form.projectCode.toUpperCase();
  const record = await db.transaction().execute(async (trx) => {
    const client = await trx.selectFrom("clients").select("id").where("id", "=", form.clientId)
      .where("isDeleted", "=", 0).executeTakeFirst();
    if (!client) throw invalid(MSG.clientRequired, [{ path: "clientId", message: MSG.clientRequired }]);
    const taken = await trx.selectFrom("projects").select("id")
      .where(sql<boolean>`projectCode = ${code} COLLATE NOCASE`).where("isDeleted", "=", 0)
      .executeTakeFirst();
    if (taken) {
      const m = `Project code ${code} is already taken`;
      throw conflict(m, [{ path: "projectCode", message: m }]);
    }
    const common = {
      projectName: form.projectName,
      clientId: form.clientId,
      projectStatus: form.projectStatus,
      poNumber: form.poNumber,
      cpi: form.cpi,
      createdBy: actor.userId,
      createdAt: stamp,
      updatedAt: stamp,
      statusChangedAt: stamp,
    };
    await trx.insertInto("projects").values({
      id,
      projectType: PROJECT_TYPE.GROUP,
      projectCode: code,
      projectDescription: "Entered by hand for invoicing",
      ...common,
    }).execute();
    await trx.insertInto("manual_project_figures").values({ projectId: id, complete: form.complete })
      .execute();
    await writeLog(trx, actor, {
      activity: `Added manual project ${code} (${projectStatusLabel(form.projectStatus)}) for invoicing`,
      module: PROJECTS_MODULE,
      recordId: id,
    }, now);
    return { _id: id, projectCode: code, projectName: form.projectName, projectStatus: form.projectStatus };
  });
  services.changes.project(id);
  return record;
}

export const READY = PROJECT_STATUS.READY_TO_INVOICE;
export const ARCHIEVED = PROJECT_STATUS.ARCHIEVED;
