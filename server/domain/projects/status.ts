/**
 * Project status: setting one with the PO number rule and the group-to-children rule, closing by
 * code, the named status actions, and telling suppliers when a project moves to invoicing or the
 * archive.
 */
import type { Db } from "../../db/connection.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import {
  actionApplies,
  childFollowsGroup,
  PROJECT_STATUS,
  PROJECT_TYPE,
  projectStatusLabel,
  STATUS_ACTIONS,
  type StatusAction,
} from "../../../shared/status.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { enqueueMails } from "../email/outbox.ts";
import { escapeHtml } from "../../../shared/html.ts";
import { type Caller, type Clock, dateAt, getProject, MODULE, projectChanged } from "./projects.ts";

type StatusTarget = {
  id: string;
  projectType: number;
  projectCode: string;
  projectStatus: number;
  poNumber: string;
};

/**
 * Sets the status with the PO number rule (Closed needs one) and logs it. A group project's
 * Paused, Closed, Ready To Invoice, Invoiced or Archieved also goes to each child not as far along
 * (`childFollowsGroup`), in the same transaction, with a log row on each child: the router checks a
 * child's own status, so a stopped group must not leave a Live child taking respondents. Returns
 * the ids whose status changed (the project first), or an empty list when nothing did. Callers
 * check whether the change is allowed.
 */
export async function applyStatus(
  trx: Db,
  actor: Actor,
  project: StatusTarget,
  to: number,
  poNumber: string | undefined,
  now: Clock,
): Promise<string[]> {
  const po = (poNumber ?? project.poNumber).trim();
  if (to === PROJECT_STATUS.CLOSED && !po) {
    throw invalid(MSG.poNumberRequired, [{ path: "poNumber", message: MSG.poNumberRequired }]);
  }
  if (to === project.projectStatus && po === project.poNumber) return [];
  const at = dateAt(now), stamp = at.toISOString();
  await trx.updateTable("projects").set({
    projectStatus: to,
    poNumber: po,
    updatedAt: stamp,
    statusChangedAt: stamp,
  })
    .where("id", "=", project.id).execute();
  const children = project.projectType === PROJECT_TYPE.GROUP && to !== project.projectStatus
    ? (await trx.selectFrom("projects").select(["id", "projectCode", "projectStatus", "poNumber"])
      .where("parentProjectId", "=", project.id).where("isDeleted", "=", 0).orderBy("projectCode").execute())
      .filter((c) => childFollowsGroup(to, c.projectStatus))
    : [];
  const change = (from: number) => `changed from ${projectStatusLabel(from)} to ${projectStatusLabel(to)}`;
  const followed = children.length
    ? ` (and ${children.length} child project${children.length === 1 ? "" : "s"})`
    : "";
  await writeLog(trx, actor, {
    activity: `Status of ${project.projectCode} ${change(project.projectStatus)}${followed}`,
    module: MODULE,
    recordId: project.id,
  }, at);
  for (const c of children) {
    await trx.updateTable("projects").set({
      projectStatus: to,
      // a child closed with its group carries the group's PO number unless it has its own
      poNumber: c.poNumber || po,
      updatedAt: stamp,
      statusChangedAt: stamp,
    }).where("id", "=", c.id).execute();
    await writeLog(trx, actor, {
      activity: `Status of ${c.projectCode} ${change(c.projectStatus)} with its group ${project.projectCode}`,
      module: MODULE,
      recordId: c.id,
    }, at);
  }
  return [project.id, ...children.map((c) => c.id)];
}

/** Tells every supplier mapped to the project (or its children) that it moved to invoicing or the archive. */
export async function notifySuppliersOfStatus(
  trx: Db,
  actor: Actor,
  p: { id: string; projectCode: string; projectName: string },
  status: number,
  now: Clock,
) {
  const maps = await trx.selectFrom("supplier_maps as m")
    .innerJoin("projects as c", "c.id", "m.projectId")
    .innerJoin("suppliers as s", "s.id", "m.supplierId")
    .select([
      "s.id",
      "s.supplierName",
      "s.supplierEmail",
      "c.projectCode",
      "m.complete",
      "m.approved",
      "m.supplierCPI",
    ])
    .where((eb) => eb.or([eb("c.id", "=", p.id), eb("c.parentProjectId", "=", p.id)]))
    .where("m.isDeleted", "=", 0).where("s.isDeleted", "=", 0).where("s.supplierEmail", "!=", "").execute();
  if (!maps.length) return;
  const what = status === PROJECT_STATUS.READY_TO_INVOICE ? "is ready to invoice" : "has been archived";
  const at = dateAt(now);
  await enqueueMails(
    trx,
    maps.map((m) => ({
      to: m.supplierEmail,
      subject: `${p.projectCode} ${what}`,
      html:
        `<p>Hello ${escapeHtml(m.supplierName)},</p><p>Project ${escapeHtml(m.projectCode)} (${
          escapeHtml(p.projectName)
        }) ${what}. ` +
        `Completes: ${m.complete}; approved: ${m.approved}; CPI $${m.supplierCPI.toFixed(2)}.</p>`,
      module: "E-mail",
      recordId: p.id,
    })),
    at,
  );
  await writeLog(trx, actor, {
    activity: `E-mailed ${maps.length} supplier${maps.length === 1 ? "" : "s"} that ${p.projectCode} ${what}`,
    module: MODULE,
    recordId: p.id,
  }, at);
}

/**
 * PUT /admin/project/code/update/:projectCode {poNumber}: closes the project (Closed) with its PO
 * number. Closed is always offered, so this works from any status; on a Closed project it corrects
 * the PO number.
 */
export async function closeByCode(
  db: Db,
  caller: Caller,
  projectCode: string,
  poNumber: string,
  now: Clock = Date.now,
) {
  const touched: string[] = [];
  const project = await db.transaction().execute(async (trx) => {
    const p = await trx.selectFrom("projects").selectAll().where("projectCode", "=", projectCode).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst();
    if (!p) throw notFound("Project");
    touched.push(...await applyStatus(trx, caller.actor, p, PROJECT_STATUS.CLOSED, poNumber, now));
    return getProject(trx, p.id);
  });
  projectChanged(project._id, ...touched);
  return project;
}

/**
 * A named status action (STATUS_ACTIONS): Proceed to Invoice, Archieve, or an invoice making the
 * project Invoiced. Refused (409) where it does not apply; a project already there stays as it is.
 */
export async function setStatus(
  db: Db,
  caller: Caller,
  id: string,
  action: StatusAction,
  now: Clock = Date.now,
) {
  const { to } = STATUS_ACTIONS[action];
  const touched: string[] = [];
  const project = await db.transaction().execute(async (trx) => {
    const p = await trx.selectFrom("projects").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
      .executeTakeFirst();
    if (!p) throw notFound("Project");
    if (p.projectStatus !== to && !actionApplies(action, p.projectStatus)) {
      throw conflict(
        `A project cannot go from ${projectStatusLabel(p.projectStatus)} to ${projectStatusLabel(to)}`,
      );
    }
    touched.push(...await applyStatus(trx, caller.actor, p, to, undefined, now));
    return getProject(trx, id);
  });
  projectChanged(id, ...touched);
  return project;
}
