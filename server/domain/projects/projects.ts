/**
 * Parent (group) and child projects: create, read, update any tab, status rules, close by code,
 * clone, soft delete. Every change writes a system log row with the project id, which the project
 * Logs dialog reads.
 */
import type { DeletedProject, ProjectDetail } from "../../../shared/api/projects.ts";
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { toRow } from "../../db/rows.ts";
import { conflict, forbidden, invalid, notFound } from "../errors.ts";
import { MSG, requiredMsg } from "../../../shared/messages.ts";
import {
  actionApplies,
  childFollowsGroup,
  projectStatusLabel,
  STATUS_ACTIONS,
  type StatusAction,
  statusChangeRefusal,
} from "../../../shared/status.ts";
import type { ChildProject, GroupProject, ProjectPatch } from "../../../shared/schemas/project.ts";
import type { Role } from "../../../shared/roles.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { nextChildCode, nextParentCode } from "./codes.ts";
import { enqueueMails } from "../email/outbox.ts";
import { escapeHtml } from "../../../shared/html.ts";
import { projectRecord } from "./serialize.ts";
import { COUNTER_NAMES } from "../../db/tables/projects.ts";
import { countryByCode } from "../lookups/geo.ts";
import { languageByCode } from "../lookups/languages.ts";
import { currencyByCode } from "../lookups/currencies.ts";

const MODULE = "Projects";

/** Invalidation hook for the router's in-memory project cache (set by the router). */
const listeners = new Set<(projectId: string) => void>();
export function onProjectChange(fn: (projectId: string) => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
/** Tells the router a project's settings changed (its quotas, questions and exclusions too). */
export const projectChanged = (...ids: string[]) => ids.forEach((id) => listeners.forEach((fn) => fn(id)));
const changed = projectChanged;

export type Caller = { actor: Actor; userId: string; role: Role };

async function assertClient(db: Db, clientId: string) {
  const c = await db.selectFrom("clients").select("id").where("id", "=", clientId).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!c) throw invalid(MSG.clientRequired, [{ path: "clientId", message: MSG.clientRequired }]);
}

async function assertManager(db: Db, userId: string) {
  const u = await db.selectFrom("users").select("id").where("id", "=", userId).where("isDeleted", "=", 0)
    .where("role", "!=", "SUPPLIER").executeTakeFirst();
  if (!u) throw invalid(MSG.managerRequired, [{ path: "userId", message: MSG.managerRequired }]);
}

type Targeting = { countryId?: string; languageId?: string; currencyId?: string };
const TARGETING_MESSAGES = {
  countryId: requiredMsg("Country"),
  languageId: MSG.languageRequired,
  currencyId: requiredMsg("Currency"),
};

/**
 * The country, language and currency given must be entries of their lookups (the schemas check only
 * their shape); each unknown one is reported on its field, all at once. Returns the codes as the
 * lookups spell them ("us" is US), leaving absent ones absent.
 */
export function checkTargeting<T extends Targeting>(input: T, messages = TARGETING_MESSAGES): T {
  const lookups = {
    countryId: (c: string) => countryByCode(c)?.code,
    languageId: (c: string) => languageByCode(c)?._id,
    currencyId: (c: string) => currencyByCode(c)?._id,
  };
  const out: T = { ...input };
  const errors: { path: string; message: string }[] = [];
  for (const key of ["countryId", "languageId", "currencyId"] as const) {
    const given = input[key];
    if (given === undefined) continue;
    const known = lookups[key](given);
    if (known) out[key] = known;
    else errors.push({ path: key, message: messages[key] });
  }
  if (errors.length) throw invalid(errors[0].message, errors);
  return out;
}

/** The project with client and manager names; deleted projects are not found. */
export async function getProject(db: Db, id: string): Promise<ProjectDetail> {
  const row = await db.selectFrom("projects")
    .leftJoin("clients", "clients.id", "projects.clientId")
    .leftJoin("users", "users.id", "projects.userId")
    .selectAll("projects")
    .select([
      "clients.clientName as clientName",
      sql<string>`users.firstName || ' ' || users.lastName`.as("managerName"),
    ])
    .where("projects.id", "=", id).where("projects.isDeleted", "=", 0)
    .executeTakeFirst();
  if (!row) throw notFound("Project");
  const record = projectRecord(row);
  const [q, s] = await Promise.all([
    db.selectFrom("questions").select(sql<number>`count(*)`.as("n")).where("projectId", "=", id).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst(),
    db.selectFrom("supplier_maps").select(sql<number>`count(*)`.as("n")).where("projectId", "=", id).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst(),
  ]);
  const links = row.isMultiLinkUrl
    ? await db.selectFrom("project_links").select(sql<number>`count(*)`.as("n")).where("projectId", "=", id)
      .executeTakeFirst()
    : null;
  return {
    ...record,
    questionCount: Number(q?.n ?? 0),
    supplierCount: Number(s?.n ?? 0),
    multiLinkCount: Number(links?.n ?? 0),
  };
}

export async function createGroupProject(db: Db, caller: Caller, input: GroupProject) {
  // a MANAGER's projects are always their own (the manager select is locked)
  const userId = caller.role === "MANAGER" ? caller.userId : input.userId;
  return await db.transaction().execute(async (trx) => {
    await assertClient(trx, input.clientId);
    await assertManager(trx, userId);
    const now = new Date().toISOString();
    const id = newId();
    const projectCode = await nextParentCode(trx);
    await trx.insertInto("projects").values({
      id,
      projectType: 1,
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
      createdAt: now,
      updatedAt: now,
      statusChangedAt: now,
    }).execute();
    await writeLog(trx, caller.actor, {
      activity: `Created project ${projectCode}`,
      module: MODULE,
      recordId: id,
    });
    return getProject(trx, id);
  });
}

export async function createChildProject(db: Db, caller: Caller, form: ChildProject) {
  const input = checkTargeting(form);
  return await db.transaction().execute(async (trx) => {
    const parent = await trx.selectFrom("projects").selectAll().where("id", "=", input.parentProjectId)
      .where("projectType", "=", 1).where("isDeleted", "=", 0).executeTakeFirst();
    if (!parent) {
      throw invalid("Parent project not found", [{
        path: "parentProjectId",
        message: "Parent project not found",
      }]);
    }
    const now = new Date().toISOString();
    const id = newId();
    const projectCode = await nextChildCode(trx, parent.projectCode, parent.id);
    await trx.insertInto("projects").values({
      id,
      projectType: 2,
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
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
      statusChangedAt: now,
    }).execute();
    await writeLog(trx, caller.actor, {
      activity: `Created child project ${projectCode}`,
      module: MODULE,
      recordId: id,
    });
    await writeLog(trx, caller.actor, {
      activity: `Added child project ${projectCode}`,
      module: MODULE,
      recordId: parent.id,
    });
    return getProject(trx, id);
  });
}

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
async function applyStatus(
  trx: Db,
  actor: Actor,
  project: StatusTarget,
  to: number,
  poNumber?: string,
): Promise<string[]> {
  const po = (poNumber ?? project.poNumber).trim();
  if (to === 6 && !po) {
    throw invalid(MSG.poNumberRequired, [{ path: "poNumber", message: MSG.poNumberRequired }]);
  }
  if (to === project.projectStatus && po === project.poNumber) return [];
  const now = new Date().toISOString();
  await trx.updateTable("projects").set({
    projectStatus: to,
    poNumber: po,
    updatedAt: now,
    statusChangedAt: now,
  })
    .where("id", "=", project.id).execute();
  const children = project.projectType === 1 && to !== project.projectStatus
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
  });
  for (const c of children) {
    await trx.updateTable("projects").set({
      projectStatus: to,
      // a child closed with its group carries the group's PO number unless it has its own
      poNumber: c.poNumber || po,
      updatedAt: now,
      statusChangedAt: now,
    }).where("id", "=", c.id).execute();
    await writeLog(trx, actor, {
      activity: `Status of ${c.projectCode} ${change(c.projectStatus)} with its group ${project.projectCode}`,
      module: MODULE,
      recordId: c.id,
    });
  }
  return [project.id, ...children.map((c) => c.id)];
}

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
  "isDynamicThanksUrl",
  "isGeoLocation",
  "isClientUrlProtection",
  "isPreScreen",
  "isExclude",
  "isMobile",
  "isDesktop",
  "isTablet",
  "isSpeeder",
  "isProxyVpn",
  "isUniqueIp",
  "isPii",
  "isRDLow",
  "isRDMedium",
  "isRDHigh",
  "maxIPCount",
  "speedTime",
] as const;

/** PUT /admin/project/update/:id: any tab's fields, a status, or {isDeleted: true}. */
export async function updateProject(
  db: Db,
  caller: Caller,
  id: string,
  patch: ProjectPatch,
): Promise<ProjectDetail | DeletedProject> {
  // the project and any children the change reached: the router forgets them all
  const touched: string[] = [];
  try {
    return await updateProjectTx(db, caller, id, patch, touched);
  } finally {
    changed(id, ...touched);
  }
}

async function updateProjectTx(
  db: Db,
  caller: Caller,
  id: string,
  input: ProjectPatch,
  touched: string[],
): Promise<ProjectDetail | DeletedProject> {
  const patch = checkTargeting(input);
  return await db.transaction().execute(async (trx) => {
    const p = await trx.selectFrom("projects").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
      .executeTakeFirst();
    if (!p) throw notFound("Project");
    const now = new Date().toISOString();
    if (patch.isDeleted) {
      const kids = await trx.selectFrom("projects").select("id").where("parentProjectId", "=", id).execute();
      touched.push(...kids.map((k) => k.id));
      await trx.updateTable("projects").set({ isDeleted: 1, updatedAt: now })
        .where((eb) => eb.or([eb("id", "=", id), eb("parentProjectId", "=", id)])).execute();
      await writeLog(trx, caller.actor, {
        activity: `Deleted project ${p.projectCode}`,
        module: MODULE,
        recordId: id,
      });
      return { ...projectRecord({ ...p, isDeleted: 1 }), isDeleted: true };
    }
    if (patch.projectStatus !== undefined) {
      const refusal = statusChangeRefusal(p.projectStatus, patch.projectStatus);
      if (refusal?.kind === "conflict") throw conflict(refusal.message);
      if (refusal) throw invalid(refusal.message, [{ path: "projectStatus", message: refusal.message }]);
    }
    if (patch.clientId && patch.clientId !== p.clientId) {
      if (p.projectType === 2) throw invalid("The client of a child project is its parent's");
      await assertClient(trx, patch.clientId);
    }
    if (patch.userId && patch.userId !== p.userId) {
      if (caller.role === "MANAGER") throw forbidden("A manager cannot hand a project to another manager");
      await assertManager(trx, patch.userId);
    }
    if (patch.languageId && patch.languageId !== p.languageId && p.projectType === 2) {
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
      if (p.projectType === 1 && Object.keys(inherited).length) {
        const kids = await trx.selectFrom("projects").select("id").where("parentProjectId", "=", id)
          .where("isDeleted", "=", 0).execute();
        if (kids.length) {
          await trx.updateTable("projects").set({ ...inherited, updatedAt: now })
            .where("parentProjectId", "=", id).execute();
          touched.push(...kids.map((k) => k.id));
        }
      }
      await writeLog(trx, caller.actor, {
        activity: `Updated ${p.projectCode}: ${changed.map((c) => c.replace(/Ids$/, "")).join(", ")}`,
        module: MODULE,
        recordId: id,
      });
    }
    if (patch.multiLinkUrls) await replaceLinks(trx, caller.actor, p, patch.multiLinkUrls);
    if (patch.projectStatus !== undefined) {
      const statusChanged = await applyStatus(
        trx,
        caller.actor,
        { ...p, poNumber: (set.poNumber as string) ?? p.poNumber },
        patch.projectStatus,
        patch.poNumber,
      );
      touched.push(...statusChanged);
      // Proceed to Invoice and Archieve ask whether to tell the suppliers (sendEmail)
      if (
        statusChanged.length && patch.sendEmail &&
        (patch.projectStatus === STATUS_ACTIONS.proceedToInvoice.to ||
          patch.projectStatus === STATUS_ACTIONS.archieve.to)
      ) {
        await notifySuppliersOfStatus(trx, caller.actor, p, patch.projectStatus);
      }
    }
    return getProject(trx, id);
  });
}

/** Tells every supplier mapped to the project (or its children) that it moved to invoicing or the archive. */
async function notifySuppliersOfStatus(
  trx: Db,
  actor: Actor,
  p: { id: string; projectCode: string; projectName: string },
  status: number,
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
  const what = status === 4 ? "is ready to invoice" : "has been archived";
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
  );
  await writeLog(trx, actor, {
    activity: `E-mailed ${maps.length} supplier${maps.length === 1 ? "" : "s"} that ${p.projectCode} ${what}`,
    module: MODULE,
    recordId: p.id,
  });
}

async function replaceLinks(trx: Db, actor: Actor, p: { id: string; projectCode: string }, urls: string[]) {
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
  });
}

/**
 * PUT /admin/project/code/update/:projectCode {poNumber}: closes the project (status 6) with its PO
 * number. Closed is always offered, so this works from any status; on a Closed project it corrects
 * the PO number.
 */
export async function closeByCode(db: Db, caller: Caller, projectCode: string, poNumber: string) {
  const touched: string[] = [];
  const project = await db.transaction().execute(async (trx) => {
    const p = await trx.selectFrom("projects").selectAll().where("projectCode", "=", projectCode).where(
      "isDeleted",
      "=",
      0,
    )
      .executeTakeFirst();
    if (!p) throw notFound("Project");
    touched.push(...await applyStatus(trx, caller.actor, p, 6, poNumber));
    return getProject(trx, p.id);
  });
  changed(project._id, ...touched);
  return project;
}

/**
 * A named status action (STATUS_ACTIONS): Proceed to Invoice, Archieve, or an invoice making the
 * project Invoiced. Refused (409) where it does not apply; a project already there stays as it is.
 */
export async function setStatus(db: Db, caller: Caller, id: string, action: StatusAction) {
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
    touched.push(...await applyStatus(trx, caller.actor, p, to));
    return getProject(trx, id);
  });
  changed(id, ...touched);
  return project;
}

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
  db: Db,
  caller: Caller,
  id: string,
  options: CloneOptions,
): Promise<{ parentProjectId: string }> {
  const opts = checkTargeting(options, {
    ...TARGETING_MESSAGES,
    countryId: MSG.cloneCountryRequired,
  });
  return await db.transaction().execute(async (trx) => {
    const src = await trx.selectFrom("projects").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
      .executeTakeFirst();
    if (!src) throw notFound("Project");
    const parent = src.projectType === 1
      ? src
      : await trx.selectFrom("projects").selectAll().where("id", "=", src.parentProjectId!)
        .executeTakeFirstOrThrow();
    const children = src.projectType === 1
      ? await trx.selectFrom("projects").selectAll().where("parentProjectId", "=", src.id).where(
        "isDeleted",
        "=",
        0,
      ).execute()
      : [src];
    const now = new Date().toISOString();
    const zero = Object.fromEntries(COUNTER_NAMES.map((k) => [k, 0]));
    const newParentId = newId();
    const parentCode = await nextParentCode(trx);
    await trx.insertInto("projects").values({
      ...parent,
      ...zero,
      id: newParentId,
      projectCode: parentCode,
      projectName: `${parent.projectName} (copy)`,
      projectStatus: 2,
      poNumber: "",
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
      statusChangedAt: now,
    }).execute();
    for (const child of children) {
      const childId = newId();
      // regions, cities and zip codes belong to the old country: a new country starts without them
      const sameCountry = (child.countryId ?? "").toUpperCase() === opts.countryId;
      const code = await nextChildCode(trx, parentCode, newParentId);
      await trx.insertInto("projects").values({
        ...child,
        ...zero,
        id: childId,
        parentProjectId: newParentId,
        projectCode: code,
        projectStatus: 2,
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
            id: newId(),
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
            id: newId(),
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
          const values = JSON.parse(q.quotaValue) as { quotaOptionId: string; quotaSize: number }[];
          await trx.insertInto("project_quotas").values({
            ...q,
            id: newId(),
            projectId: childId,
            quotaValue: JSON.stringify(
              values.map((x) => ({ quotaOptionId: x.quotaOptionId, quotaSize: x.quotaSize, completes: 0 })),
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
    });
    await writeLog(trx, caller.actor, {
      activity: `Created ${parentCode} as a clone of ${src.projectCode}`,
      module: MODULE,
      recordId: newParentId,
    });
    return { parentProjectId: newParentId };
  });
}

/** The Logs dialog: the project's own log rows, newest first. */
export async function projectLogs(db: Db, projectId: string, limit = 200) {
  const rows = await db.selectFrom("system_logs").select(["id", "name", "activity", "createdAt", "module"])
    .where("recordId", "=", projectId).orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit)
    .execute();
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    activity: r.activity,
    createdAt: r.createdAt,
    module: r.module,
  }));
}
