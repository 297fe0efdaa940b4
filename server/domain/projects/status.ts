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
  groupReopens,
  PROJECT_STATUS,
  PROJECT_TYPE,
  projectStatusLabel,
  STATUS_ACTIONS,
  type StatusAction,
} from "../../../shared/status.ts";
import { writeLog } from "../audit/log.ts";
import { enqueueMails } from "../email/outbox.ts";
import { escapeHtml } from "../../../shared/html.ts";
import { type Caller, type CallerCtx, dateAt, getProject, MODULE } from "./projects.ts";
import type {
  ChildStatusChange,
  ChildStatusKept,
  ChildStatusOutcome,
  StatusChanged,
} from "../../../shared/api/projects.ts";
import { counted } from "../../../shared/format.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

type StatusTarget = {
  id: string;
  projectType: number;
  projectCode: string;
  projectStatus: number;
  poNumber: string;
};

/** Nothing changed: the project already had that status and PO number. */
const unchanged = () => ({
  ids: [] as string[],
  childStatus: { changed: [], kept: [] } as ChildStatusOutcome,
});

/**
 * Sets the status with the PO number rule (Closed needs one) and logs it. Returns the ids whose
 * status changed (the project first), or an empty list when nothing did. Callers check whether the
 * change is allowed. See `changeStatus` for what a group's change does to its children.
 */
export async function applyStatus(...args: Parameters<typeof changeStatus>): Promise<string[]> {
  return (await changeStatus(...args)).ids;
}

/**
 * `applyStatus`, also answering what the change did to a group's children. A group project's
 * Paused, Closed, Ready To Invoice, Invoiced or Archieved also goes to each child not as far along
 * (`childFollowsGroup`), in the same transaction, with a log row on each child: the router checks a
 * child's own status, so a stopped group must not leave a Live child taking respondents. Each child
 * the group stops is remembered with the status it had (group_status_holds); when the group reopens
 * (`groupReopens`: Live, Testing, Waiting, Awarded) exactly those children get their status back,
 * and a child stopped on its own stays as it is. A project's own change of status (not through its
 * group) forgets its hold: it is no longer the group's to bring back.
 */
export async function changeStatus(
  ctx: WriteCtx,
  input: { project: StatusTarget; to: number; poNumber: string | undefined },
): Promise<{ ids: string[]; childStatus: ChildStatusOutcome }> {
  const { db: trx, actor, now } = ctx;
  const { project, to, poNumber } = input;
  const po = (poNumber ?? project.poNumber).trim();
  if (to === PROJECT_STATUS.CLOSED && !po) {
    throw invalid(MSG.poNumberRequired, [{ path: "poNumber", message: MSG.poNumberRequired }]);
  }
  if (to === project.projectStatus && po === project.poNumber) return unchanged();
  const at = dateAt(now), stamp = at.toISOString();
  await trx.updateTable("projects").set({
    projectStatus: to,
    poNumber: po,
    updatedAt: stamp,
    statusChangedAt: stamp,
  })
    .where("id", "=", project.id).execute();
  if (to !== project.projectStatus) {
    await trx.deleteFrom("group_status_holds").where("projectId", "=", project.id).execute();
  }
  const children = project.projectType === PROJECT_TYPE.GROUP && to !== project.projectStatus
    ? await childrenOf(trx, project.id)
    : [];
  const reopens = groupReopens(to);
  const changed: ChildStatusChange[] = [], kept: ChildStatusKept[] = [];
  for (const c of children) {
    const next = childFollowsGroup(to, c.projectStatus)
      ? to
      : reopens && c.statusBefore !== null && c.statusBefore !== c.projectStatus
      ? c.statusBefore
      : null;
    if (next === null) {
      if (c.projectStatus !== to) {
        kept.push({ _id: c.id, projectCode: c.projectCode, projectStatus: c.projectStatus });
      }
    } else changed.push({ _id: c.id, projectCode: c.projectCode, from: c.projectStatus, to: next });
  }
  const change = (from: number, next: number) =>
    `changed from ${projectStatusLabel(from)} to ${projectStatusLabel(next)}`;
  const followed = changed.length
    ? ` (and ${counted(changed.length, "child project")}${reopens ? " back with it" : ""})`
    : "";
  await writeLog(trx, actor, {
    activity: `Status of ${project.projectCode} ${change(project.projectStatus, to)}${followed}`,
    module: MODULE,
    recordId: project.id,
  }, at);
  const poOf = new Map(children.map((c) => [c.id, c.poNumber]));
  for (const c of changed) {
    await trx.updateTable("projects").set({
      projectStatus: c.to,
      // a child closed with its group carries the group's PO number unless it has its own
      ...(reopens ? {} : { poNumber: poOf.get(c._id) || po }),
      updatedAt: stamp,
      statusChangedAt: stamp,
    }).where("id", "=", c._id).execute();
    if (reopens) {
      await trx.deleteFrom("group_status_holds").where("projectId", "=", c._id).execute();
    } else {
      // the status before the group's first stop is kept: Paused then Closed reopens to what it was
      await trx.insertInto("group_status_holds").values({
        projectId: c._id,
        groupId: project.id,
        statusBefore: c.from,
        createdAt: stamp,
      }).onConflict((oc) => oc.column("projectId").doNothing()).execute();
    }
    await writeLog(trx, actor, {
      activity: `Status of ${c.projectCode} ${change(c.from, c.to)} with its group ${project.projectCode}`,
      module: MODULE,
      recordId: c._id,
    }, at);
  }
  return { ids: [project.id, ...changed.map((c) => c._id)], childStatus: { changed, kept } };
}

/** A group's live children with the status each had before the group stopped it (null: not stopped by it). */
async function childrenOf(trx: Db, groupId: string) {
  return await trx.selectFrom("projects as c")
    .leftJoin(
      "group_status_holds as h",
      (j) => j.onRef("h.projectId", "=", "c.id").onRef("h.groupId", "=", "c.parentProjectId"),
    )
    .select(["c.id", "c.projectCode", "c.projectStatus", "c.poNumber", "h.statusBefore"])
    .where("c.parentProjectId", "=", groupId).where("c.isDeleted", "=", 0).orderBy("c.projectCode").execute();
}

/** At most this many project codes are named in a message; the rest are counted. */
const NAMED = 5;
function codes(list: { projectCode: string }[]) {
  const named = list.slice(0, NAMED).map((c) => c.projectCode);
  const more = list.length - named.length;
  const head = named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named[0];
  return more ? `${named.join(", ")} and ${more} more` : head;
}

function byStatus<T>(list: T[], status: (t: T) => number): [number, T[]][] {
  const out = new Map<number, T[]>();
  for (const t of list) out.set(status(t), [...(out.get(status(t)) ?? []), t]);
  return [...out];
}

/**
 * The message of a status change, in words a toast can show: the children that moved with the group
 * ("2 child projects live again", "3 child projects Paused with it") and, when the group reopens, the
 * children that stay stopped ("P10009-03 stays Paused"). Just `base` when no child was concerned.
 */
export function statusMessage(base: string, to: number, outcome: ChildStatusOutcome | undefined): string {
  if (!outcome) return base;
  const reopens = groupReopens(to);
  // a child that went back to a status of its own that takes no traffic (it was paused before its
  // group closed) stays stopped, as one that kept its status does
  const back = outcome.changed.filter((c) => !reopens || groupReopens(c.to));
  const stays = reopens
    ? [
      ...outcome.changed.filter((c) => !groupReopens(c.to)).map((c) => ({ ...c, projectStatus: c.to })),
      ...outcome.kept.filter((c) => !groupReopens(c.projectStatus)),
    ]
    : [];
  const parts = byStatus(back, (c) => c.to).map(([status, list]) =>
    !reopens
      ? `${counted(list.length, "child project")} ${projectStatusLabel(status)} with it`
      : status === PROJECT_STATUS.LIVE
      ? `${counted(list.length, "child project")} live again`
      : `${counted(list.length, "child project")} back to ${projectStatusLabel(status)}`
  );
  for (const [status, list] of byStatus(stays, (c) => c.projectStatus)) {
    parts.push(`${codes(list)} ${list.length === 1 ? "stays" : "stay"} ${projectStatusLabel(status)}`);
  }
  return parts.length ? `${base}: ${parts.join("; ")}` : base;
}

/** Tells every supplier mapped to the project (or its children) that it moved to invoicing or the archive. */
export async function notifySuppliersOfStatus(
  ctx: WriteCtx,
  input: { project: { id: string; projectCode: string; projectName: string }; status: number },
) {
  const { db: trx, actor, now } = ctx;
  const { project: p, status } = input;
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
    activity: `Queued an e-mail to ${maps.length} supplier${
      maps.length === 1 ? "" : "s"
    } that ${p.projectCode} ${what}`,
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
  ctx: CallerCtx & Pick<Ctx, "services">,
  input: { projectCode: string; poNumber: string },
) {
  const { db, services, now } = ctx;
  const caller: Caller = ctx;
  const { projectCode, poNumber } = input;
  const touched: string[] = [];
  const project: StatusChanged = await db.transaction().execute(async (trx) => {
    const p = await trx.selectFrom("projects").selectAll().where("projectCode", "=", projectCode).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst();
    if (!p) throw notFound("Project");
    const { ids, childStatus } = await changeStatus({ db: trx, actor: caller.actor, now }, {
      project: p,
      to: PROJECT_STATUS.CLOSED,
      poNumber,
    });
    touched.push(...ids);
    return {
      ...await getProject(trx, p.id),
      ...(p.projectType === PROJECT_TYPE.GROUP ? { childStatus } : {}),
    };
  });
  services.changes.project(project._id, ...touched);
  return project;
}

/**
 * A named status action (STATUS_ACTIONS): Proceed to Invoice, Archieve, or an invoice making the
 * project Invoiced. Refused (409) where it does not apply; a project already there stays as it is.
 */
export async function setStatus(
  ctx: CallerCtx & Pick<Ctx, "services">,
  input: { id: string; action: StatusAction },
) {
  const { db, services, now } = ctx;
  const caller: Caller = ctx;
  const { id, action } = input;
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
    touched.push(
      ...await applyStatus({ db: trx, actor: caller.actor, now }, { project: p, to, poNumber: undefined }),
    );
    return getProject(trx, id);
  });
  services.changes.project(id, ...touched);
  return project;
}
