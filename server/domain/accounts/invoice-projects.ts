/**
 * The projects an invoice bills (part 2: Ready To Invoice, Generate Invoice): a group project's
 * figures summed over its children, the line a new invoice starts from (the accepted count, at a
 * CPI that makes it the approved revenue), and the client's Ready To Invoice projects offered to
 * the form.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { Ctx } from "../ctx.ts";
import type { InvoiceProjectOption } from "../../../shared/api/accounts.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import { cents } from "./dates.ts";
import { projectAccepted } from "../common/accepted.ts";

/**
 * A group project's figures, summed over its children (where the router counts): completes, the
 * accepted count (approved, or the admin-approved count where staff set one: what suppliers are
 * paid for, ../common/accepted.ts), sample size, and the revenue accepted x CPI. A project entered
 * by hand bills the completes typed for it: they are its accepted count.
 */
export async function projectFigures(db: Db, ids: string[]) {
  const out = new Map<string, { complete: number; approved: number; sampleSize: number; revenue: number }>();
  if (!ids.length) return out;
  const accepted = projectAccepted("p");
  for (const part of chunks(ids, 500)) {
    const rows = await db.selectFrom("projects as p")
      .select([
        "p.parentProjectId",
        sql<number>`sum(p.complete)`.as("complete"),
        sql<number>`sum(${accepted})`.as("approved"),
        sql<number>`sum(p.sampleSize)`.as("sampleSize"),
        sql<number>`sum(${accepted} * p.cpi)`.as("revenue"),
      ])
      .where("p.parentProjectId", "in", part).where("p.isDeleted", "=", 0).groupBy("p.parentProjectId")
      .execute();
    for (const r of rows) {
      out.set(r.parentProjectId!, {
        complete: Number(r.complete ?? 0),
        approved: Number(r.approved ?? 0),
        sampleSize: Number(r.sampleSize ?? 0),
        revenue: cents(Number(r.revenue ?? 0)),
      });
    }
    // projects entered by hand bill the completes typed for them, at their own CPI
    const manual = await db.selectFrom("manual_project_figures as f").innerJoin(
      "projects as p",
      "p.id",
      "f.projectId",
    )
      .select(["f.projectId", "f.complete", "p.cpi"]).where("f.projectId", "in", part).execute();
    for (const m of manual) {
      if (out.has(m.projectId)) continue;
      out.set(m.projectId, {
        complete: m.complete,
        approved: m.complete,
        sampleSize: 0,
        revenue: cents(m.complete * m.cpi),
      });
    }
  }
  return out;
}

export function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * The default line of a project: its accepted count (what the client approved, what its suppliers
 * are paid for), and a CPI that makes count x CPI its approved revenue.
 */
export function defaultLine(
  p: { cpi: number },
  f: { approved: number; revenue: number } | undefined,
): { complete: number; cpi: number; total: number } {
  if (!f) return { complete: 0, cpi: p.cpi, total: 0 };
  const cpi = f.approved > 0 ? cents(f.revenue / f.approved) : p.cpi;
  return { complete: f.approved, cpi, total: cents(f.approved * cpi) };
}

/** POST /admin/invoice/projects/all: the client's Ready To Invoice group projects (and an edited invoice's own). */
export async function invoiceProjects(
  ctx: Pick<Ctx, "db">,
  input: { clientId: string; invoiceId?: string | null },
): Promise<InvoiceProjectOption[]> {
  const db = ctx.db, clientId = input.clientId, invoiceId = input.invoiceId ?? null;
  let q = db.selectFrom("projects").select(["id", "projectCode", "projectName", "poNumber", "cpi"])
    .where("clientId", "=", clientId).where("isDeleted", "=", 0)
    .where("projectType", "=", PROJECT_TYPE.GROUP);
  q = invoiceId
    ? q.where((eb) =>
      eb.or([
        eb("projectStatus", "=", PROJECT_STATUS.READY_TO_INVOICE),
        eb("id", "in", eb.selectFrom("invoice_lines").select("projectId").where("invoiceId", "=", invoiceId)),
      ])
    )
    : q.where("projectStatus", "=", PROJECT_STATUS.READY_TO_INVOICE);
  const rows = await q.orderBy("projectCode").limit(500).execute();
  const figures = await projectFigures(db, rows.map((r) => r.id));
  return rows.map((r) => {
    const f = figures.get(r.id);
    return {
      _id: r.id,
      projectCode: r.projectCode,
      projectName: r.projectName,
      poNumber: r.poNumber,
      approved: f?.approved ?? 0,
      routerComplete: f?.complete ?? 0,
      sampleSize: f?.sampleSize ?? 0,
      ...defaultLine(r, f),
    };
  });
}
