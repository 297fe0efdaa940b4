/**
 * Invoices to clients (part 2: 2 "Invoices", "Generate Invoice", 3 Invoice, 4, 5 "Invoice
 * generation", "Invoice status edit"). An invoice bills a client for Ready To Invoice projects (or
 * lines typed by hand); saving it makes those projects Invoiced, in the same transaction. Its code
 * comes from a sequence inside that transaction, so concurrent invoices never share one.
 */
import type { Clock } from "../common/clock.ts";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import type { InvoiceRecord, RefUploadResult } from "../../../shared/api/accounts.ts";
import type {
  InvoiceForm,
  InvoiceLine,
  InvoiceStatusForm,
  InvoiceUpdate,
} from "../../../shared/schemas/accounts.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import { nextSequence } from "../projects/codes.ts";
import { applyStatus } from "../projects/status.ts";
import { issuerFor, MODULE } from "./issuers.ts";
import { addDays, businessToday, cents } from "./dates.ts";
import { refChangeText } from "./refs.ts";
import { chunks, projectFigures } from "./invoice-projects.ts";
import { invoiceStatusLabel } from "./invoices-list.ts";
import { getInvoice, INVOICE_CODE_START, INVOICE_SEQUENCE, invoiceCodeOf } from "./invoice-record.ts";
import { INVOICES, uploadRefs } from "./documents.ts";

// the dashboard's invoice figures live beside this file
export { type AmountBucket, type InvoicedAmount, invoicedAmounts, purchaseOrderAmount } from "./amounts.ts";

export const INVOICE_MSG = {
  dateTooEarly: "The invoice date cannot be earlier than today",
  dateMovedBack: "The invoice date cannot be earlier than its present value",
  dueTooEarly: "The due date cannot be earlier than the invoice date plus the net terms",
  projectNotReady: (code: string) => `Project ${code} is not Ready To Invoice for this client`,
  projectTwice: (code: string) => `Project ${code} is on the invoice twice`,
  projectInvoiced: (code: string, inv: string) => `Project ${code} is already on invoice ${inv}`,
};

// ---------------------------------------------------------------- write

type Target = {
  id: string;
  projectType: number;
  projectCode: string;
  projectStatus: number;
  poNumber: string;
};

/** Checks the lines against the client's projects; returns the projects the lines name. */
async function checkLines(
  trx: Db,
  clientId: string,
  lines: InvoiceLine[],
  invoiceId: string | null,
): Promise<Map<string, Target & { projectName: string }>> {
  const ids = lines.map((l) => l.projectId).filter((x): x is string => !!x);
  const seen = new Set<string>();
  lines.forEach((l, i) => {
    if (!l.projectId) return;
    if (seen.has(l.projectId)) {
      throw invalid(INVOICE_MSG.projectTwice(l.projectCode), [{
        path: `projects.${i}.projectId`,
        message: INVOICE_MSG.projectTwice(l.projectCode),
      }]);
    }
    seen.add(l.projectId);
  });
  const rows = ids.length
    ? await trx.selectFrom("projects")
      .select(["id", "projectType", "projectCode", "projectName", "projectStatus", "poNumber", "clientId"])
      .where("id", "in", ids).where("isDeleted", "=", 0).execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const onThis = new Set(
    invoiceId
      ? (await trx.selectFrom("invoice_lines").select("projectId").where("invoiceId", "=", invoiceId)
        .execute())
        .map((r) => r.projectId)
      : [],
  );
  const elsewhere = ids.length
    ? await trx.selectFrom("invoice_lines as l").innerJoin("invoices as i", "i.id", "l.invoiceId")
      .select(["l.projectId", "i.invoiceCode"]).where("l.projectId", "in", ids).where("i.isDeleted", "=", 0)
      .$if(!!invoiceId, (q) => q.where("i.id", "!=", invoiceId!)).execute()
    : [];
  const taken = new Map(elsewhere.map((r) => [r.projectId, r.invoiceCode]));
  lines.forEach((l, i) => {
    if (!l.projectId) return;
    const p = byId.get(l.projectId);
    const path = `projects.${i}.projectId`;
    const code = p?.projectCode ?? l.projectCode;
    if (taken.has(l.projectId)) {
      const m = INVOICE_MSG.projectInvoiced(code, taken.get(l.projectId)!);
      throw conflict(m, [{ path, message: m }]);
    }
    const ok = p && p.clientId === clientId && p.projectType === PROJECT_TYPE.GROUP &&
      (p.projectStatus === PROJECT_STATUS.READY_TO_INVOICE || onThis.has(p.id));
    if (!ok) {
      throw invalid(INVOICE_MSG.projectNotReady(code), [{
        path,
        message: INVOICE_MSG.projectNotReady(code),
      }]);
    }
  });
  return byId;
}

function checkDates(form: InvoiceForm, earliest: string, earliestMsg: string) {
  if (form.currentDate < earliest) {
    throw invalid(earliestMsg, [{ path: "currentDate", message: earliestMsg }]);
  }
  if (form.dueDate < addDays(form.currentDate, form.netTerms)) {
    throw invalid(INVOICE_MSG.dueTooEarly, [{ path: "dueDate", message: INVOICE_MSG.dueTooEarly }]);
  }
}

async function insertLines(
  trx: Db,
  invoiceId: string,
  lines: InvoiceLine[],
  projects: Map<string, { projectCode: string; projectName: string }>,
  /** The caller's clock reading (ms): dates the line ids. */
  at: number,
) {
  await trx.deleteFrom("invoice_lines").where("invoiceId", "=", invoiceId).execute();
  const values = lines.map((l, i) => {
    const p = l.projectId ? projects.get(l.projectId) : undefined;
    return {
      id: newId(at),
      invoiceId,
      position: i + 1,
      projectId: l.projectId,
      // a project's line carries the project's own code and name
      projectCode: p?.projectCode ?? l.projectCode,
      projectName: p?.projectName ?? l.projectName,
      poNumber: l.poNumber,
      complete: l.complete,
      cpi: cents(l.cpi),
      total: cents(l.total),
    };
  });
  for (const part of chunks(values, 100)) await trx.insertInto("invoice_lines").values(part).execute();
}

const grandTotal = (lines: InvoiceLine[]) => cents(lines.reduce((s, l) => s + cents(l.total), 0));

/**
 * The lines that bill a count other than their project's accepted count, for the invoice's log
 * ("; P10002 bills 150 where 142 were approved (+8)"); "" when every line bills what was approved.
 */
async function approvalNotes(
  trx: Db,
  lines: InvoiceLine[],
  projects: Map<string, { projectCode: string }>,
): Promise<string> {
  const figures = await projectFigures(trx, [...projects.keys()]);
  return lines.map((l) => {
    const f = l.projectId ? figures.get(l.projectId) : undefined;
    if (!f || f.approved === l.complete) return "";
    const diff = l.complete - f.approved;
    return `; ${
      projects.get(l.projectId!)?.projectCode ?? l.projectCode
    } bills ${l.complete} where ${f.approved} ${f.approved === 1 ? "was" : "were"} approved (${
      diff > 0 ? "+" : ""
    }${diff})`;
  }).join("");
}

/**
 * The log row of a saved invoice (what was done, its total, the lines that bill another count than
 * was approved), then the invoice as saved.
 */
async function savedInvoice(
  trx: Db,
  actor: Actor,
  what: string,
  x: { id: string; lines: InvoiceLine[]; projects: Map<string, { projectCode: string }>; at: Date },
): Promise<InvoiceRecord> {
  await writeLog(trx, actor, {
    activity: `${what} ($${grandTotal(x.lines).toFixed(2)})${await approvalNotes(trx, x.lines, x.projects)}`,
    module: MODULE,
    recordId: x.id,
  }, x.at);
  return await getInvoice({ db: trx }, x.id);
}

/** Moves projects to a status (Invoiced when billed, back to Ready To Invoice when taken off). */
async function moveProjects(trx: Db, actor: Actor, ids: string[], to: number, from: number, at: Date) {
  const touched: string[] = [];
  if (!ids.length) return touched;
  const rows = await trx.selectFrom("projects")
    .select(["id", "projectType", "projectCode", "projectStatus", "poNumber"])
    .where("id", "in", ids).where("projectStatus", "=", from).execute();
  for (const p of rows) {
    touched.push(
      ...await applyStatus({ db: trx, actor, now: () => at.getTime() }, {
        project: p,
        to,
        poNumber: undefined,
      }),
    );
  }
  return touched;
}

/** The invoice's client (live, else the form's client is refused) and the company it is issued from. */
async function clientAndIssuer(trx: Db, now: Clock, clientId: string) {
  const client = await trx.selectFrom("clients").select(["id", "wolfAccount", "clientName"])
    .where("id", "=", clientId).where("isDeleted", "=", 0).executeTakeFirst();
  if (!client) throw invalid("Unknown client", [{ path: "clientId", message: "Unknown client" }]);
  return { client, issuer: await issuerFor({ db: trx, now }, client.wolfAccount) };
}

/** POST /admin/invoice/add: saves an invoice with a fresh code; its projects become Invoiced. */
export async function createInvoice(
  ctx: WriteCtx & Pick<Ctx, "services">,
  form: InvoiceForm,
): Promise<InvoiceRecord> {
  const { db, actor, now, services } = ctx;
  // a day's grace: a browser west of the business may still be on yesterday
  checkDates(form, addDays(businessToday(now), -1), INVOICE_MSG.dateTooEarly);
  const touched: string[] = [];
  const at = new Date(now()), stamp = at.toISOString();
  const id = newId(at.getTime());
  const record = await db.transaction().execute(async (trx) => {
    const { client, issuer } = await clientAndIssuer(trx, now, form.clientId);
    const projects = await checkLines(trx, form.clientId, form.projects, null);
    const invoiceCode = invoiceCodeOf(await nextSequence(trx, INVOICE_SEQUENCE, INVOICE_CODE_START));
    await trx.insertInto("invoices").values({
      id,
      invoiceCode,
      clientId: form.clientId,
      issuingCompanyId: issuer._id,
      netTerms: form.netTerms,
      invoiceStatus: form.invoiceStatus,
      currentDate: form.currentDate,
      dueDate: form.dueDate,
      total: grandTotal(form.projects),
      createdBy: actor.userId,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    await insertLines(trx, id, form.projects, projects, at.getTime());
    touched.push(
      ...await moveProjects(
        trx,
        actor,
        [...projects.keys()],
        PROJECT_STATUS.INVOICED,
        PROJECT_STATUS.READY_TO_INVOICE,
        at,
      ),
    );
    return await savedInvoice(trx, actor, `Generated invoice ${invoiceCode} for ${client.clientName}`, {
      id,
      lines: form.projects,
      projects,
      at,
    });
  });
  services.changes.project(...touched);
  return record;
}

/** PUT /admin/invoice/update/:id: the whole invoice (lines, dates, terms) or its status edit. */
export async function updateInvoice(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: InvoiceUpdate & { id: string },
): Promise<InvoiceRecord> {
  const { db, actor, now, services } = ctx, { id, ...form } = input;
  const touched: string[] = [];
  const at = new Date(now()), stamp = at.toISOString();
  const record = await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("invoices").selectAll().where("id", "=", id).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst();
    if (!before) throw notFound("Invoice");
    if (!("projects" in form)) {
      const s = form as InvoiceStatusForm;
      await trx.updateTable("invoices").set({
        referenceNo: s.referenceNo,
        recievedDate: s.recievedDate,
        comment: s.comment,
        invoiceStatus: s.invoiceStatus,
        updatedAt: stamp,
      }).where("id", "=", id).execute();
      const moved = refChangeText(before, s);
      await writeLog(trx, actor, {
        activity: `Invoice ${before.invoiceCode} marked ${invoiceStatusLabel(s.invoiceStatus)} (${
          moved || `reference ${s.referenceNo}`
        })`,
        module: MODULE,
        recordId: id,
      }, at);
      return await getInvoice({ db: trx }, id);
    }
    const f = form as InvoiceForm;
    checkDates(f, before.currentDate, INVOICE_MSG.dateMovedBack);
    const { issuer } = await clientAndIssuer(trx, ctx.now, f.clientId);
    const oldIds = (await trx.selectFrom("invoice_lines").select("projectId").where("invoiceId", "=", id)
      .execute()).map((r) => r.projectId).filter((x): x is string => !!x);
    const projects = await checkLines(trx, f.clientId, f.projects, id);
    await trx.updateTable("invoices").set({
      clientId: f.clientId,
      issuingCompanyId: issuer._id,
      netTerms: f.netTerms,
      invoiceStatus: f.invoiceStatus,
      currentDate: f.currentDate,
      dueDate: f.dueDate,
      total: grandTotal(f.projects),
      updatedAt: stamp,
    }).where("id", "=", id).execute();
    await insertLines(trx, id, f.projects, projects, at.getTime());
    const newIds = new Set(projects.keys());
    touched.push(
      ...await moveProjects(
        trx,
        actor,
        oldIds.filter((p) => !newIds.has(p)),
        PROJECT_STATUS.READY_TO_INVOICE,
        PROJECT_STATUS.INVOICED,
        at,
      ),
      ...await moveProjects(
        trx,
        actor,
        [...newIds],
        PROJECT_STATUS.INVOICED,
        PROJECT_STATUS.READY_TO_INVOICE,
        at,
      ),
    );
    return await savedInvoice(trx, actor, `Updated invoice ${before.invoiceCode}`, {
      id,
      lines: f.projects,
      projects,
      at,
    });
  });
  services.changes.project(...touched);
  return record;
}

// ---------------------------------------------------------------- Upload Ref. No.

/** POST /admin/invoice/upload {data: rows, overwrite}: each row's invoice is marked Paid with its reference. */
export function uploadInvoiceRefs(
  ctx: WriteCtx,
  input: { data: string[][]; overwrite?: boolean },
): Promise<RefUploadResult> {
  return uploadRefs(ctx, INVOICES, input);
}
