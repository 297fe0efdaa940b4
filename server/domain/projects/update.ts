/** PUT /admin/project/update/:id: any tab's fields, a status, the survey links, or a soft delete. */
import type { ChildStatusOutcome, DeletedProject, StatusChanged } from "../../../shared/api/projects.ts";
import type { Db } from "../../db/connection.ts";
import { toRow } from "../../db/rows.ts";
import { conflict, forbidden, invalid, notFound } from "../errors.ts";
import { PROJECT_TYPE, STATUS_ACTIONS, statusChangeRefusal } from "../../../shared/status.ts";
import type { ProjectPatch } from "../../../shared/schemas/project.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { projectRecord } from "./serialize.ts";
import {
  assertClient,
  assertManager,
  type Caller,
  checkTargeting,
  type Clock,
  dateAt,
  getProject,
  MODULE,
} from "./projects.ts";
import { changeStatus, notifySuppliersOfStatus } from "./status.ts";
import { SECURITY_FLAGS } from "../../../shared/schemas/project.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import { PROJECT_FIELDS } from "../audit/fields.ts";
import type { CallerCtx } from "./projects.ts";
import type { Ctx } from "../ctx.ts";

const PATCH_COLUMNS = [
  "projectName",
  "projectDescription",
  "notes",
  "clientEmail",
  "projectSpecs",
  "projectQuestionaire",
  "averageLOI",
  "ir",
  "wid",
  "categoryId",
  "countryId",
  "languageId",
  "currencyId",
  "cpi",
  "sampleSize",
  "sampleSizeInc",
  "respondentClickQuota",
  "respondentTestClickQuota",
  "startDate",
  "endDate",
  "isMultiLinkUrl",
  "singleLinkUrl",
  "singleLinkUrlTest",
  ...SECURITY_FLAGS,
  "maxIPCount",
  "speedTime",
] as const;

/** PUT /admin/project/update/:id: any tab's fields, a status, or {isDeleted: true}. */
export async function updateProject(
  ctx: CallerCtx & Pick<Ctx, "services">,
  input: { id: string } & ProjectPatch,
): Promise<StatusChanged | DeletedProject> {
  const { db, services, now } = ctx;
  const caller: Caller = ctx;
  const { id, ...patch } = input;
  // the project and any children the change reached: the router forgets them all
  const touched: string[] = [];
  try {
    return await updateProjectTx(db, caller, id, patch, touched, now);
  } finally {
    services.changes.project(id, ...touched);
  }
}

async function updateProjectTx(
  db: Db,
  caller: Caller,
  id: string,
  input: ProjectPatch,
  touched: string[],
  clock: Clock,
): Promise<StatusChanged | DeletedProject> {
  const patch = checkTargeting(input);
  return await db.transaction().execute(async (trx) => {
    const p = await trx.selectFrom("projects").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
      .executeTakeFirst();
    if (!p) throw notFound("Project");
    const at = dateAt(clock), now = at.toISOString();
    if (patch.isDeleted) {
      const kids = await trx.selectFrom("projects").select("id").where("parentProjectId", "=", id).execute();
      touched.push(...kids.map((k) => k.id));
      await trx.updateTable("projects").set({ isDeleted: 1, updatedAt: now })
        .where((eb) => eb.or([eb("id", "=", id), eb("parentProjectId", "=", id)])).execute();
      await writeLog(trx, caller.actor, {
        activity: `Deleted project ${p.projectCode}`,
        module: MODULE,
        recordId: id,
      }, at);
      return { ...projectRecord({ ...p, isDeleted: 1 }), isDeleted: true };
    }
    if (patch.projectStatus !== undefined) {
      const refusal = statusChangeRefusal(p.projectStatus, patch.projectStatus);
      if (refusal?.kind === "conflict") throw conflict(refusal.message);
      if (refusal) throw invalid(refusal.message, [{ path: "projectStatus", message: refusal.message }]);
    }
    if (patch.clientId && patch.clientId !== p.clientId) {
      if (p.projectType === PROJECT_TYPE.CHILD) {
        throw invalid("The client of a child project is its parent's");
      }
      await assertClient(trx, patch.clientId);
    }
    if (patch.userId && patch.userId !== p.userId) {
      if (caller.role === "MANAGER") throw forbidden("A manager cannot hand a project to another manager");
      await assertManager(trx, patch.userId);
    }
    if (patch.languageId && patch.languageId !== p.languageId && p.projectType === PROJECT_TYPE.CHILD) {
      throw invalid("The language of an existing child project cannot change", [{
        path: "languageId",
        message: "Language cannot change",
      }]);
    }
    const start = patch.startDate ?? p.startDate, end = patch.endDate ?? p.endDate;
    if (start && end && end < start) {
      throw invalid("End date must not be before start date", [{
        path: "endDate",
        message: "End date must not be before start date",
      }]);
    }

    const set: Record<string, unknown> = {};
    for (const k of PATCH_COLUMNS) {
      if (patch[k as keyof ProjectPatch] !== undefined) set[k] = patch[k as keyof ProjectPatch];
    }
    if (patch.clientId) set.clientId = patch.clientId;
    if (patch.userId) set.userId = patch.userId;
    if (patch.regionId) set.regionIds = JSON.stringify(patch.regionId);
    if (patch.cityId) set.cityIds = JSON.stringify(patch.cityId);
    if (patch.zipCodeId) set.zipCodes = JSON.stringify(patch.zipCodeId);
    if (patch.poNumber !== undefined && patch.projectStatus === undefined) set.poNumber = patch.poNumber;
    const changed = Object.keys(set);
    if (changed.length) {
      await trx.updateTable("projects").set({ ...toRow(set), updatedAt: now }).where("id", "=", id).execute();
      // children follow their parent's client, manager and Secured Url when the parent's change
      // (a form saved with them as they were leaves a child's own Secured Url alone)
      const row = toRow(set) as Record<string, unknown>;
      const inherited = Object.fromEntries(
        (["clientId", "userId", "isDynamicThanksUrl"] as const).filter((k) =>
          row[k] !== undefined && row[k] !== p[k]
        )
          .map((k) => [k, row[k]]),
      );
      if (p.projectType === PROJECT_TYPE.GROUP && Object.keys(inherited).length) {
        const kids = await trx.selectFrom("projects").select("id").where("parentProjectId", "=", id)
          .where("isDeleted", "=", 0).execute();
        if (kids.length) {
          await trx.updateTable("projects").set({ ...inherited, updatedAt: now })
            .where("parentProjectId", "=", id).execute();
          touched.push(...kids.map((k) => k.id));
        }
      }
      // the fields the save really changed, each with its old and new value; none: no log row
      const changes = await diffRecord(trx, PROJECT_FIELDS, p, row);
      await writeChanges(trx, caller.actor, {
        head: `Updated ${p.projectCode}`,
        changes,
        module: MODULE,
        recordId: id,
      }, at);
    }
    if (patch.multiLinkUrls) await replaceLinks(trx, caller.actor, p, patch.multiLinkUrls, at);
    let childStatus: ChildStatusOutcome | undefined;
    if (patch.projectStatus !== undefined) {
      const changed = await changeStatus({ db: trx, actor: caller.actor, now: clock }, {
        project: { ...p, poNumber: (set.poNumber as string) ?? p.poNumber },
        to: patch.projectStatus,
        poNumber: patch.poNumber,
      });
      const statusChanged = changed.ids;
      if (p.projectType === PROJECT_TYPE.GROUP) childStatus = changed.childStatus;
      touched.push(...statusChanged);
      // Proceed to Invoice and Archieve ask whether to tell the suppliers (sendEmail)
      if (
        statusChanged.length && patch.sendEmail &&
        (patch.projectStatus === STATUS_ACTIONS.proceedToInvoice.to ||
          patch.projectStatus === STATUS_ACTIONS.archieve.to)
      ) {
        await notifySuppliersOfStatus({ db: trx, actor: caller.actor, now: clock }, {
          project: p,
          status: patch.projectStatus,
        });
      }
    }
    const project = await getProject(trx, id);
    return childStatus ? { ...project, childStatus } : project;
  });
}

async function replaceLinks(
  trx: Db,
  actor: Actor,
  p: { id: string; projectCode: string },
  urls: string[],
  at: Date,
) {
  // links already handed to respondents stay; unused ones are replaced by the upload
  await trx.deleteFrom("project_links").where("projectId", "=", p.id).where("usedBy", "is", null).execute();
  const unique = [...new Set(urls)];
  for (let i = 0; i < unique.length; i += 500) {
    await trx.insertInto("project_links").values(
      unique.slice(i, i + 500).map((url) => ({ projectId: p.id, url, usedBy: null })),
    ).execute();
  }
  await writeLog(trx, actor, {
    activity: `Uploaded ${unique.length} survey links to ${p.projectCode}`,
    module: MODULE,
    recordId: p.id,
  }, at);
}
