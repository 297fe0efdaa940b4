/**
 * Project e-mails (part 1, 7 "E-mail"), all through the outbox: a message to the project's mapped
 * suppliers, each supplier's own entry link (send/map), a progress report to the client
 * (send/report) and a request for quote to notification-enabled suppliers (send/quota).
 */
import type { Db } from "../../db/connection.ts";
import { invalid, notFound } from "../errors.ts";
import { escapeHtml } from "../../../shared/html.ts";
import { PROJECT_TYPE, projectStatusLabel } from "../../../shared/status.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { type Clock, dateAt } from "../common/clock.ts";
import { enqueueMails, type NewMail } from "../email/outbox.ts";
import { notificationRecipients } from "../suppliers/suppliers.ts";
import { countryByCode } from "../lookups/geo.ts";
import type { WriteCtx } from "../ctx.ts";

const MODULE = "E-mail";

async function projectWithChildren(db: Db, projectId: string) {
  const p = await db.selectFrom("projects").leftJoin("clients", "clients.id", "projects.clientId")
    .selectAll("projects").select(["clients.clientName", "clients.clientEmail as clientMainEmail"])
    .where("projects.id", "=", projectId).where("projects.isDeleted", "=", 0).executeTakeFirst();
  if (!p) throw notFound("Project");
  const children = p.projectType === PROJECT_TYPE.GROUP
    ? await db.selectFrom("projects").selectAll().where("parentProjectId", "=", p.id).where(
      "isDeleted",
      "=",
      0,
    ).orderBy("projectCode").execute()
    : [p];
  return { project: p, children };
}

async function mappedSuppliers(db: Db, projectIds: string[]) {
  if (!projectIds.length) return [];
  return await db.selectFrom("supplier_maps as m")
    .innerJoin("suppliers as s", "s.id", "m.supplierId")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .select([
      "m.id as mapId",
      "m.supplierCPI",
      "m.supplierQuota",
      "m.complete",
      "s.id as supplierId",
      "s.supplierName",
      "s.supplierEmail",
      "p.projectCode",
      "p.projectName",
      "p.averageLOI",
      "p.ir",
      "p.countryId",
    ])
    .where("m.projectId", "in", projectIds).where("m.isDeleted", "=", 0).where("s.isDeleted", "=", 0).where(
      "s.isActive",
      "=",
      1,
    )
    .where("s.supplierEmail", "!=", "").orderBy("s.supplierName").execute();
}

const table = (rows: [string, string | number][]) =>
  `<table cellpadding="4" style="border-collapse:collapse">${
    rows.map(([k, v]) =>
      `<tr><td style="color:#555">${escapeHtml(k)}</td><td><b>${escapeHtml(String(v))}</b></td></tr>`
    ).join("")
  }</table>`;

async function queue(
  db: Db,
  actor: Actor,
  projectId: string,
  activity: string,
  now: Clock,
  build: (trx: Db) => Promise<NewMail[]>,
) {
  return await db.transaction().execute(async (trx) => {
    const mails = await build(trx);
    if (!mails.length) throw invalid("Nobody to send this to: no recipient with an e-mail address");
    const at = dateAt(now);
    await enqueueMails(trx, mails, at);
    await writeLog(trx, actor, {
      activity: `${activity} (${mails.length} e-mail${mails.length === 1 ? "" : "s"})`,
      module: "Projects",
      recordId: projectId,
    }, at);
    return mails.length;
  });
}

/** POST /admin/email/send {type 'project'}: a message to every supplier mapped to the project (or its children). */
export function sendProjectEmail(
  ctx: WriteCtx,
  input: { projectId: string; emailBody: string },
) {
  const { db, actor, now } = ctx;
  const { projectId, emailBody } = input;
  return queue(db, actor, projectId, "Queued an e-mail to the project's suppliers", now, async (trx) => {
    const { project, children } = await projectWithChildren(trx, projectId);
    const maps = await mappedSuppliers(trx, children.map((c) => c.id));
    const seen = new Set<string>();
    return maps.filter((m) => !seen.has(m.supplierId) && seen.add(m.supplierId)).map((m) => ({
      to: m.supplierEmail,
      subject: `${project.projectCode}: ${project.projectName}`,
      html: emailBody,
      module: MODULE,
      recordId: projectId,
    }));
  });
}

/** POST /admin/email/send/map: each mapped supplier gets its own entry link and terms. */
export function sendSupplierLinks(
  ctx: WriteCtx,
  input: { projectId: string; entryBase: string },
) {
  const { db, actor, now } = ctx;
  const { projectId, entryBase } = input;
  return queue(db, actor, projectId, "Queued entry links for the suppliers", now, async (trx) => {
    const { children } = await projectWithChildren(trx, projectId);
    const maps = await mappedSuppliers(trx, children.map((c) => c.id));
    return maps.map((m) => ({
      to: m.supplierEmail,
      subject: `Survey link for ${m.projectCode}: ${m.projectName}`,
      html: `<p>Hello ${escapeHtml(m.supplierName)},</p><p>Here is your entry link for ${
        escapeHtml(m.projectCode)
      }.</p>${
        table([
          ["Entry link", `${entryBase}/survey/start/${m.mapId}?sid=[sid]`],
          ["Country", countryByCode(m.countryId)?.label ?? m.countryId ?? ""],
          ["LOI (minutes)", m.averageLOI],
          ["IR (%)", m.ir],
          ["CPI ($)", m.supplierCPI.toFixed(2)],
          ["Quota", m.supplierQuota || "open"],
        ])
      }<p>Replace [sid] with your respondent id.</p>`,
      module: MODULE,
      recordId: projectId,
    }));
  });
}

/** POST /admin/email/send/report: a progress report to the client. */
export function sendClientReport(
  ctx: WriteCtx,
  projectId: string,
) {
  const { db, actor, now } = ctx;
  return queue(db, actor, projectId, "Queued a progress report for the client", now, async (trx) => {
    const { project, children } = await projectWithChildren(trx, projectId);
    const to = project.clientEmail || project.clientMainEmail || "";
    if (!to) return [];
    const rows = children.map((c) =>
      `<tr><td>${escapeHtml(c.projectCode)}</td><td>${
        escapeHtml(c.projectName)
      }</td><td align="right">${c.complete} / ${c.sampleSize}</td><td>${
        escapeHtml(projectStatusLabel(c.projectStatus))
      }</td></tr>`
    ).join("");
    const complete = children.reduce((s, c) => s + c.complete, 0),
      sample = children.reduce((s, c) => s + c.sampleSize, 0);
    return [{
      to,
      subject: `Progress report: ${project.projectCode} ${project.projectName}`,
      html:
        `<p>Dear ${
          escapeHtml(project.clientName ?? "client")
        },</p><p>${complete} of ${sample} completes so far.</p>` +
        `<table cellpadding="4" border="1" style="border-collapse:collapse"><tr><th>Code</th><th>Name</th><th>Complete</th><th>Status</th></tr>${rows}</table>`,
      module: MODULE,
      recordId: projectId,
    }];
  });
}

/** POST /admin/email/send/quota: a request for quote to suppliers that take notifications. */
export function sendRfq(
  ctx: WriteCtx,
  projectId: string,
) {
  const { db, actor, now } = ctx;
  return queue(db, actor, projectId, "Queued a request for quote to suppliers", now, async (trx) => {
    const { project, children } = await projectWithChildren(trx, projectId);
    const target = children[0] ?? project;
    const suppliers = await notificationRecipients(trx);
    return suppliers.map((s) => ({
      to: s.supplierEmail,
      subject: `Request for quote: ${project.projectCode} ${project.projectName}`,
      html: `<p>Hello ${
        escapeHtml(s.supplierName)
      },</p><p>Can you deliver this project? Please reply with your feasibility and CPI.</p>${
        table([
          ["Country", countryByCode(target.countryId)?.label ?? target.countryId ?? ""],
          ["Completes needed", children.reduce((sum, c) => sum + c.sampleSize, 0)],
          ["LOI (minutes)", target.averageLOI],
          ["IR (%)", target.ir],
          ["Field dates", `${target.startDate ?? ""} to ${target.endDate ?? ""}`],
        ])
      }`,
      module: MODULE,
      recordId: projectId,
    }));
  });
}
