/** Adding a group (parent) project, and a child project under one. */
import { newId } from "../../db/ids.ts";
import { invalid } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import { isEditableStatus, PROJECT_TYPE } from "../../../shared/status.ts";
import type { ChildProject, GroupProject } from "../../../shared/schemas/project.ts";
import { writeLog } from "../audit/log.ts";
import { nextChildCode, nextParentCode } from "./codes.ts";
import {
  assertClient,
  assertManager,
  type Caller,
  type CallerCtx,
  checkTargeting,
  dateAt,
  getProject,
  MODULE,
} from "./projects.ts";

/**
 * A new project takes a status of the restricted list only: Ready To Invoice and Invoiced are set by
 * their named actions (the forms accept any status code, so that an edit form may keep one).
 */
function assertNewStatus(status: number) {
  if (!isEditableStatus(status)) {
    throw invalid(MSG.projectStatusNotEditable, [{
      path: "projectStatus",
      message: MSG.projectStatusNotEditable,
    }]);
  }
}

export async function createGroupProject(
  ctx: CallerCtx,
  input: GroupProject,
) {
  assertNewStatus(input.projectStatus);
  return await ctx.db.transaction().execute((trx) => insertGroupProject({ ...ctx, db: trx }, input));
}

/** Adds a group project inside the caller's transaction (an import adds its group and child in one). */
export async function insertGroupProject(
  ctx: CallerCtx,
  input: GroupProject,
) {
  const { db: trx, now } = ctx;
  const caller: Caller = ctx;
  assertNewStatus(input.projectStatus);
  // a MANAGER's projects are always their own (the manager select is locked)
  const userId = caller.role === "MANAGER" ? caller.userId : input.userId;
  {
    await assertClient(trx, input.clientId);
    await assertManager(trx, userId);
    const at = dateAt(now), stamp = at.toISOString();
    const id = newId(at.getTime());
    const projectCode = await nextParentCode(trx);
    await trx.insertInto("projects").values({
      id,
      projectType: PROJECT_TYPE.GROUP,
      parentProjectId: null,
      projectCode,
      projectName: input.projectName,
      projectDescription: input.projectDescription,
      notes: input.notes,
      clientId: input.clientId,
      userId,
      projectStatus: input.projectStatus,
      poNumber: input.poNumber,
      clientEmail: input.clientEmail,
      projectSpecs: input.projectSpecs,
      averageLOI: input.averageLOI,
      ir: input.ir,
      isDynamicThanksUrl: input.isDynamicThanksUrl ? 1 : 0,
      createdBy: caller.userId,
      createdAt: stamp,
      updatedAt: stamp,
      statusChangedAt: stamp,
    }).execute();
    await writeLog(trx, caller.actor, {
      activity: `Created project ${projectCode}`,
      module: MODULE,
      recordId: id,
    }, at);
    return getProject(trx, id);
  }
}

export async function createChildProject(
  ctx: CallerCtx,
  form: ChildProject,
) {
  assertNewStatus(form.projectStatus);
  const input = checkTargeting(form);
  return await ctx.db.transaction().execute((trx) => insertChildProject({ ...ctx, db: trx }, input));
}

/** Adds a child project inside the caller's transaction (an import adds its group and child in one). */
export async function insertChildProject(
  ctx: CallerCtx,
  form: ChildProject,
) {
  const { db: trx, now } = ctx;
  const caller: Caller = ctx;
  assertNewStatus(form.projectStatus);
  const input = checkTargeting(form);
  {
    const parent = await trx.selectFrom("projects").selectAll().where("id", "=", input.parentProjectId)
      .where("projectType", "=", PROJECT_TYPE.GROUP).where("isDeleted", "=", 0).executeTakeFirst();
    if (!parent) {
      throw invalid("Parent project not found", [{
        path: "parentProjectId",
        message: "Parent project not found",
      }]);
    }
    const at = dateAt(now), stamp = at.toISOString();
    const id = newId(at.getTime());
    const projectCode = await nextChildCode(trx, parent.projectCode, parent.id);
    await trx.insertInto("projects").values({
      id,
      projectType: PROJECT_TYPE.CHILD,
      parentProjectId: parent.id,
      projectCode,
      projectName: input.projectName,
      projectDescription: input.projectDescription,
      // the child's client is the parent's (the select is disabled on the form)
      clientId: parent.clientId,
      userId: parent.userId,
      projectStatus: input.projectStatus,
      poNumber: input.poNumber,
      averageLOI: input.averageLOI,
      ir: input.ir,
      wid: input.wid,
      categoryId: input.categoryId ?? null,
      countryId: input.countryId,
      regionIds: JSON.stringify(input.regionId),
      cityIds: JSON.stringify(input.cityId),
      zipCodes: JSON.stringify(input.zipCodeId),
      languageId: input.languageId,
      currencyId: input.currencyId,
      cpi: input.cpi,
      sampleSize: input.sampleSize,
      respondentClickQuota: input.respondentClickQuota,
      respondentTestClickQuota: input.respondentTestClickQuota,
      startDate: input.startDate,
      endDate: input.endDate,
      isDynamicThanksUrl: parent.isDynamicThanksUrl,
      allowRouting: input.allowRouting ? 1 : 0,
      createdBy: caller.userId,
      createdAt: stamp,
      updatedAt: stamp,
      statusChangedAt: stamp,
    }).execute();
    await writeLog(trx, caller.actor, {
      activity: `Created child project ${projectCode}`,
      module: MODULE,
      recordId: id,
    }, at);
    await writeLog(trx, caller.actor, {
      activity: `Added child project ${projectCode}`,
      module: MODULE,
      recordId: parent.id,
    }, at);
    return getProject(trx, id);
  }
}
