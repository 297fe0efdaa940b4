/** Cloning a project: a group with all its children, or a child under a new group. */
import { sql } from "kysely";
import { newId } from "../../db/ids.ts";
import { notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import { NEW_PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import { writeLog } from "../audit/log.ts";
import { nextChildCode, nextParentCode } from "./codes.ts";
import { COUNTER_NAMES } from "../../db/tables/projects.ts";
import {
  type Caller,
  type CallerCtx,
  checkTargeting,
  dateAt,
  MODULE,
  TARGETING_MESSAGES,
} from "./projects.ts";

export type CloneOptions = {
  isPreScreen: boolean;
  isSupplier: boolean;
  isLiveUrl: boolean;
  isQuota: boolean;
  countryId: string;
  languageId: string;
};

/**
 * Clones a project: a parent with all its children, or a child under a new parent. Counters start
 * at zero; options choose what else comes along. Returns the new parent's id.
 */
export async function cloneProject(
  ctx: CallerCtx,
  input: { id: string } & CloneOptions,
): Promise<{ parentProjectId: string }> {
  const { db, now: clock } = ctx;
  const caller: Caller = ctx;
  const { id, ...options } = input;
  const opts = checkTargeting(options, {
    ...TARGETING_MESSAGES,
    countryId: MSG.cloneCountryRequired,
  });
  return await db.transaction().execute(async (trx) => {
    const src = await trx.selectFrom("projects").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
      .executeTakeFirst();
    if (!src) throw notFound("Project");
    const parent = src.projectType === PROJECT_TYPE.GROUP
      ? src
      : await trx.selectFrom("projects").selectAll().where("id", "=", src.parentProjectId!)
        .executeTakeFirstOrThrow();
    const children = src.projectType === PROJECT_TYPE.GROUP
      ? await trx.selectFrom("projects").selectAll().where("parentProjectId", "=", src.id).where(
        "isDeleted",
        "=",
        0,
      ).execute()
      : [src];
    const at = dateAt(clock), now = at.toISOString();
    const zero = Object.fromEntries(COUNTER_NAMES.map((k) => [k, 0]));
    const newParentId = newId(at.getTime());
    const parentCode = await nextParentCode(trx);
    await trx.insertInto("projects").values({
      ...parent,
      ...zero,
      id: newParentId,
      projectCode: parentCode,
      projectName: `${parent.projectName} (copy)`,
      projectStatus: NEW_PROJECT_STATUS,
      poNumber: "",
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
      statusChangedAt: now,
    }).execute();
    for (const child of children) {
      const childId = newId(at.getTime());
      // regions, cities and zip codes belong to the old country: a new country starts without them
      const sameCountry = (child.countryId ?? "").toUpperCase() === opts.countryId;
      const code = await nextChildCode(trx, parentCode, newParentId);
      await trx.insertInto("projects").values({
        ...child,
        ...zero,
        id: childId,
        parentProjectId: newParentId,
        projectCode: code,
        projectStatus: NEW_PROJECT_STATUS,
        poNumber: "",
        countryId: opts.countryId,
        languageId: opts.languageId,
        regionIds: sameCountry ? child.regionIds : "[]",
        cityIds: sameCountry ? child.cityIds : "[]",
        zipCodes: sameCountry ? child.zipCodes : "[]",
        isPreScreen: opts.isPreScreen ? child.isPreScreen : 0,
        singleLinkUrl: opts.isLiveUrl ? child.singleLinkUrl : "",
        singleLinkUrlTest: opts.isLiveUrl ? child.singleLinkUrlTest : "",
        isMultiLinkUrl: opts.isLiveUrl ? child.isMultiLinkUrl : 0,
        createdBy: caller.userId,
        createdAt: now,
        updatedAt: now,
        statusChangedAt: now,
      }).execute();
      if (opts.isPreScreen) {
        const qs = await trx.selectFrom("questions").selectAll().where("projectId", "=", child.id).where(
          "isDeleted",
          "=",
          0,
        ).execute();
        for (const q of qs) {
          await trx.insertInto("questions").values({
            ...q,
            id: newId(at.getTime()),
            projectId: childId,
            createdAt: now,
            updatedAt: now,
          }).execute();
        }
      }
      if (opts.isSupplier) {
        const maps = await trx.selectFrom("supplier_maps").selectAll().where("projectId", "=", child.id)
          .where("isDeleted", "=", 0).execute();
        for (const m of maps) {
          await trx.insertInto("supplier_maps").values({
            ...m,
            ...zero,
            adminApproved: null,
            id: newId(at.getTime()),
            projectId: childId,
            createdAt: now,
            updatedAt: now,
          })
            .execute();
        }
      }
      if (opts.isQuota) {
        const quotas = await trx.selectFrom("project_quotas").selectAll().where("projectId", "=", child.id)
          .where("isDeleted", "=", 0).execute();
        for (const q of quotas) {
          // a cell keeps all it says (an import's option groups, its strict limit); its count starts again
          const values = JSON.parse(q.quotaValue) as { quotaOptionId: string; quotaSize: number }[];
          await trx.insertInto("project_quotas").values({
            ...q,
            id: newId(at.getTime()),
            projectId: childId,
            quotaValue: JSON.stringify(
              values.map((x) => ({ ...x, completes: 0 })),
            ),
            createdAt: now,
            updatedAt: now,
          }).execute();
        }
      }
      if (opts.isLiveUrl && child.isMultiLinkUrl) {
        await trx.insertInto("project_links").columns(["projectId", "url", "usedBy"])
          .expression((eb) =>
            eb.selectFrom("project_links").select([
              sql.lit(childId).as("projectId"),
              "url",
              sql.lit(null).as("usedBy"),
            ]).where("projectId", "=", child.id)
          )
          .execute();
      }
    }
    await writeLog(trx, caller.actor, {
      activity: `Cloned ${src.projectCode} as ${parentCode}`,
      module: MODULE,
      recordId: src.id,
    }, at);
    await writeLog(trx, caller.actor, {
      activity: `Created ${parentCode} as a clone of ${src.projectCode}`,
      module: MODULE,
      recordId: newParentId,
    }, at);
    return { parentProjectId: newParentId };
  });
}
