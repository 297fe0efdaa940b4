/**
 * The status steps of the reconcile screens (spec part 1, 4; part 2, 4): Proceed to Invoice (4) and
 * Archieve (7) through PUT /admin/project/reconsile/update/:id, and Revoke Project. Each asks two
 * confirmations on the screen (the action, then whether to e-mail the suppliers) and carries the
 * answer as `sendEmail`. The rules are the projects domain's (status.ts): reused, not repeated.
 */
import type { Db } from "../../db/connection.ts";
import type { Actor } from "../audit/log.ts";
import { writeLog } from "../audit/log.ts";
import { conflict, notFound } from "../errors.ts";
import { enqueueMails } from "../email/outbox.ts";
import { escapeHtml } from "../../../shared/html.ts";
import {
  actionApplies,
  PROJECT_STATUS,
  projectStatusLabel,
  STATUS_ACTIONS,
  type StatusAction,
} from "../../../shared/status.ts";
import type { StatusResult } from "../../../shared/api/reconcile.ts";
import { applyStatus, notifySuppliersOfStatus } from "../projects/status.ts";
import { dateAt } from "../projects/projects.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import { MODULE } from "./scope.ts";

async function load(trx: Db, id: string) {
  const p = await trx.selectFrom("projects").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!p) throw notFound("Project");
  return p;
}

const result = (p: { id: string; projectCode: string; projectStatus: number }): StatusResult => ({
  _id: p.id,
  projectCode: p.projectCode,
  projectStatus: p.projectStatus,
  projectStatusLabel: projectStatusLabel(p.projectStatus),
});

/** Proceed to Invoice (4) or Archieve (7), e-mailing the mapped suppliers when asked. */
export async function reconcileStatus(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { id: string; projectStatus: number; sendEmail: boolean },
): Promise<StatusResult> {
  const { db, actor, now, services } = ctx, { id, projectStatus: to, sendEmail } = input;
  const action: StatusAction = to === STATUS_ACTIONS.archieve.to ? "archieve" : "proceedToInvoice";
  const touched: string[] = [];
  const out = await db.transaction().execute(async (trx) => {
    const p = await load(trx, id);
    if (p.projectStatus !== to && !actionApplies(action, p.projectStatus)) {
      throw conflict(
        `A project cannot go from ${projectStatusLabel(p.projectStatus)} to ${projectStatusLabel(to)}`,
      );
    }
    const changed = await applyStatus({ db: trx, actor, now }, { project: p, to, poNumber: undefined });
    touched.push(...changed);
    if (changed.length && sendEmail) {
      await notifySuppliersOfStatus({ db: trx, actor, now }, { project: p, status: to });
    }
    return result({ ...p, projectStatus: to });
  });
  services.changes.project(...touched);
  return out;
}

/** Where Revoke applies: a project sent on to invoicing or the archive, and not invoiced. */
const REVOCABLE: readonly number[] = [PROJECT_STATUS.READY_TO_INVOICE, PROJECT_STATUS.ARCHIEVED];

/**
 * Revoke Project: a project that went on to invoicing or the archive comes back to Closed (with its
 * children that went with it), so its reconcile can change again. An invoiced project is refused
 * (its invoice stands). With `sendEmail`, every supplier mapped to it hears that it is reopened.
 */
export async function revokeProject(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { id: string; sendEmail: boolean },
): Promise<StatusResult> {
  const { db, actor, now, services } = ctx, { id, sendEmail } = input;
  const touched: string[] = [];
  const out = await db.transaction().execute(async (trx) => {
    const p = await load(trx, id);
    if (!REVOCABLE.includes(p.projectStatus)) {
      throw conflict(
        p.projectStatus === PROJECT_STATUS.INVOICED
          ? `${p.projectCode} is Invoiced: its invoice stands, it cannot be revoked`
          : `Only a project that is Ready To Invoice or Archieved can be revoked; ${p.projectCode} is ${
            projectStatusLabel(p.projectStatus)
          }`,
      );
    }
    const at = dateAt(now), stamp = at.toISOString();
    touched.push(
      ...await applyStatus({ db: trx, actor, now }, {
        project: p,
        to: PROJECT_STATUS.CLOSED,
        poNumber: undefined,
      }),
    );
    // children that went on with their group come back with it (applyStatus only moves them forward)
    const children = await trx.selectFrom("projects").select(["id", "projectCode", "projectStatus"])
      .where("parentProjectId", "=", p.id).where("isDeleted", "=", 0)
      .where("projectStatus", "in", [...REVOCABLE]).execute();
    for (const c of children) {
      await trx.updateTable("projects").set({
        projectStatus: PROJECT_STATUS.CLOSED,
        updatedAt: stamp,
        statusChangedAt: stamp,
      }).where("id", "=", c.id).execute();
      await writeLog(trx, actor, {
        activity: `Status of ${c.projectCode} changed from ${
          projectStatusLabel(c.projectStatus)
        } to Closed with its group ${p.projectCode} (revoked)`,
        module: MODULE,
        recordId: c.id,
      }, at);
      touched.push(c.id);
    }
    await writeLog(trx, actor, {
      activity: `Revoked ${p.projectCode}: back from ${projectStatusLabel(p.projectStatus)} to Closed`,
      module: MODULE,
      recordId: p.id,
    }, at);
    if (sendEmail) await mailRevoked(trx, actor, p, at);
    return result({ ...p, projectStatus: PROJECT_STATUS.CLOSED });
  });
  services.changes.project(...touched);
  return out;
}

async function mailRevoked(
  trx: Db,
  actor: Actor,
  p: { id: string; projectCode: string; projectName: string },
  at: Date,
) {
  const maps = await trx.selectFrom("supplier_maps as m")
    .innerJoin("projects as c", "c.id", "m.projectId")
    .innerJoin("suppliers as s", "s.id", "m.supplierId")
    .select(["s.supplierName", "s.supplierEmail", "c.projectCode"])
    .where((eb) => eb.or([eb("c.id", "=", p.id), eb("c.parentProjectId", "=", p.id)]))
    .where("m.isDeleted", "=", 0).where("s.isDeleted", "=", 0).where("s.supplierEmail", "!=", "").execute();
  if (!maps.length) return;
  await enqueueMails(
    trx,
    maps.map((m) => ({
      to: m.supplierEmail,
      subject: `${p.projectCode} is back in reconciliation`,
      html: `<p>Hello ${escapeHtml(m.supplierName)},</p><p>Project ${escapeHtml(m.projectCode)} (${
        escapeHtml(p.projectName)
      }) has been revoked and is back in reconciliation; its approved counts may still change.</p>`,
      module: "E-mail",
      recordId: p.id,
    })),
    at,
  );
  await writeLog(trx, actor, {
    activity: `Queued an e-mail to ${maps.length} supplier${
      maps.length === 1 ? "" : "s"
    } that ${p.projectCode} was revoked`,
    module: MODULE,
    recordId: p.id,
  }, at);
}
