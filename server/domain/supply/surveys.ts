/**
 * The supply API's surveys (issue 23, item 2; `GET /supply/v1/surveys`, `/surveys/:id`,
 * `/surveys/:id/quotas`, `POST /surveys/:id/start`): what one supplier may send members to.
 *
 * Which surveys: the supplier portal's two lists, by their own queries (portal/projects.ts and
 * portal/inventory.ts): its maps on Live survey projects that take its traffic (traffic on,
 * boarded), and the inventory it may start. Starting one is the portal's Start
 * (startInventoryProject). Anything else is a 404, whatever id is sent.
 *
 * A page is two indexed reads in survey id order (maps, inventory; limit + 1 each, merged), then
 * one read each for the page's quotas, questions and quota option texts: a page costs the same
 * handful of statements however many surveys it holds. Measured figures come from the project's
 * counters (the writer keeps them), never from sessions.
 */
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { AnyQB } from "../../db/list.ts";
import type { Ctx } from "../ctx.ts";
import { notFound } from "../errors.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import { conversionOf, type InventoryStart } from "../../../shared/api/portal.ts";
import {
  encodeSurveyCursor,
  type SupplyDeviceType,
  type SupplyQuota,
  type SupplySurvey,
  type SupplySurveyPage,
  type SupplySurveyQuotas,
  type SupplySurveysQuery,
  SURVEYS_PAGE_DEFAULT,
} from "../../../shared/api/supply-surveys.ts";
import { mappedProject, mappedProjectsQuery } from "../portal/projects.ts";
import { inventoryListParts, startInventoryProject } from "../portal/inventory.ts";
import { leftOf, qualificationsOf, quotasOf, remainingOf } from "./survey-parts.ts";

/** Who asks, and where its members enter (the app's public origin). */
export type SupplyScope = { supplierId: string; entryBase: string };

/** The supplier's kind (its members see the options shown to that kind) and its last change. */
async function supplierOf(db: Db, supplierId: string) {
  const s = await db.selectFrom("suppliers").select(["supplierType", "updatedAt"])
    .where("id", "=", supplierId).where("isDeleted", "=", 0).where("isActive", "=", 1)
    .executeTakeFirst();
  if (!s) throw notFound("Survey");
  return s;
}

/**
 * When anything a survey shows last changed: the project (its edits), its counters (the writer's
 * countersAt), its quotas and questions, the supplier's map (`own`) and the supplier itself.
 */
const changedAt = (own: RawBuilder<unknown>, supplierUpdatedAt: string) =>
  sql<string>`max(p.updatedAt, ${own}, ${supplierUpdatedAt}, coalesce(p.countersAt, ''),
    coalesce((select max(cq.updatedAt) from project_quotas cq where cq.projectId = p.id), ''),
    coalesce((select max(cx.updatedAt) from questions cx where cx.projectId = p.id), ''))`;

/** What both lists add to the portal's columns, aliased apart from them. */
const SURVEY_COLUMNS = [
  "p.id as surveyId",
  "p.cpi as projectCpi",
  "p.languageId as sLanguage",
  "p.endDate as sEndDate",
  "p.isMobile as sMobile",
  "p.isDesktop as sDesktop",
  "p.isTablet as sTablet",
  "p.isPreScreen as sPreScreen",
  "p.sampleSize as sSampleSize",
  "p.complete as sComplete",
  "p.clicked as sClicked",
  "p.terminate as sTerminate",
  "p.preScreenTerminate as sPreScreenTerminate",
  "p.loiSeconds as sLoiSeconds",
  "p.loiCompletes as sLoiCompletes",
] as const;

type SurveyRow = {
  surveyId: string;
  projectCode: string;
  projectName: string;
  countryId: string | null;
  averageLOI: number;
  ir: number;
  sLanguage: string;
  sEndDate: string | null;
  sMobile: number;
  sDesktop: number;
  sTablet: number;
  sPreScreen: number;
  sSampleSize: number;
  sComplete: number;
  sClicked: number;
  sTerminate: number;
  sPreScreenTerminate: number;
  sLoiSeconds: number;
  sLoiCompletes: number;
  changedAt: string;
  /** Started: the map's figures and entry link; inventory: what starting would give. */
  cpi: number;
  mapLeft: number | null;
  mapPreScreen: boolean;
  entryLink: string | null;
};

type Window = { after?: string; only?: string; ids?: string[]; since?: string; limit: number };

/** One list's page: the window's surveys in id order (limit + 1, to tell a next page). */
function windowed(q: AnyQB, w: Window, changed: RawBuilder<string>): AnyQB {
  let out = q.select([...SURVEY_COLUMNS, changed.as("changedAt")]);
  if (w.only) out = out.where("p.id", "=", w.only);
  if (w.ids) out = out.where("p.id", "in", w.ids.length ? w.ids : [""]);
  if (w.after) out = out.where("p.id", ">", w.after);
  if (w.since) out = out.where(sql<boolean>`${changed} >= ${w.since}`);
  return out.orderBy("p.id").limit(w.limit + 1);
}

/** The supplier's started surveys in the window: maps on Live survey projects that take its traffic. */
async function startedRows(db: Db, scope: SupplyScope, w: Window, supplierUpdatedAt: string) {
  const q = mappedProjectsQuery(db, scope.supplierId)
    .select("m.isPreScreen as mPreScreen")
    .where("p.projectType", "=", PROJECT_TYPE.CHILD).where("p.projectStatus", "=", PROJECT_STATUS.LIVE)
    .where("m.allowTraffic", "=", 1).where("m.isBoarded", "=", 1);
  const rows = await windowed(q, w, changedAt(sql`m.updatedAt`, supplierUpdatedAt)).execute();
  const portal = mappedProject(scope.entryBase);
  return rows.map((r): SurveyRow => {
    const shown = portal(r);
    return {
      ...r,
      cpi: shown.supplierCPI,
      mapLeft: leftOf(shown.supplierQuota, shown.complete),
      mapPreScreen: !!r.mPreScreen,
      entryLink: shown.redirectUrl,
    };
  });
}

/** The inventory in the window (the portal's rules): not started, at the CPI starting would give. */
async function inventoryRows(db: Db, scope: SupplyScope, w: Window, supplierUpdatedAt: string) {
  const parts = await inventoryListParts(db, scope.supplierId);
  const rows = await windowed(parts.query, w, changedAt(sql`''`, supplierUpdatedAt)).execute();
  return rows.map((r): SurveyRow => ({
    ...r,
    cpi: parts.map(r).supplierCPI,
    // a start maps with no quota of its own and the project's pre-screen setting
    mapLeft: null,
    mapPreScreen: true,
    entryLink: null,
  }));
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The surveys of the rows, their quotas and qualifications read once for all of them. */
async function surveysOf(db: Db, rows: SurveyRow[], supplierType: number): Promise<SupplySurvey[]> {
  const ids = rows.map((r) => r.surveyId);
  const [quotas, qualifications] = await Promise.all([
    quotasOf(db, ids),
    qualificationsOf(db, ids, supplierType),
  ]);
  return rows.map((r) => {
    const own: SupplyQuota[] = quotas.get(r.surveyId) ?? [];
    const complete = Number(r.sComplete),
      screened = complete + Number(r.sTerminate) +
        Number(r.sPreScreenTerminate);
    const timed = Number(r.sLoiCompletes);
    const devices: SupplyDeviceType[] = [];
    if (r.sDesktop) devices.push("desktop");
    if (r.sMobile) devices.push("mobile");
    if (r.sTablet) devices.push("tablet");
    return {
      id: r.surveyId,
      code: r.projectCode,
      name: r.projectName,
      started: r.entryLink !== null,
      country: (r.countryId ?? "").toUpperCase(),
      language: (r.sLanguage || "en").toLowerCase(),
      cpi: Number(r.cpi),
      loi: {
        stated: Number(r.averageLOI),
        measured: timed > 0 ? round1(Number(r.sLoiSeconds) / timed / 60) : null,
      },
      ir: { stated: Number(r.ir), measured: screened > 0 ? round1((complete * 100) / screened) : null },
      conversion: conversionOf(complete, Number(r.sClicked)),
      remaining: remainingOf(leftOf(Number(r.sSampleSize), complete), r.mapLeft, own),
      deviceTypes: devices,
      endDate: r.sEndDate ? r.sEndDate.slice(0, 10) : null,
      qualifications: r.sPreScreen && r.mapPreScreen ? qualifications.get(r.surveyId) ?? [] : [],
      quotas: own,
      entryLink: r.entryLink,
      updatedAt: r.changedAt,
    };
  });
}

/** The rows of a window: both lists, merged in survey id order. */
async function rowsOf(db: Db, scope: SupplyScope, w: Window) {
  const supplier = await supplierOf(db, scope.supplierId);
  const [started, inventory] = await Promise.all([
    startedRows(db, scope, w, supplier.updatedAt),
    inventoryRows(db, scope, w, supplier.updatedAt),
  ]);
  const rows = [...started, ...inventory].sort((a, b) => (a.surveyId < b.surveyId ? -1 : 1));
  return { rows, supplierType: supplier.supplierType };
}

/**
 * How far before the answer its `asOf` is set: a change written while the answer was being read,
 * stamped a moment before it, is answered again by the next poll rather than missed (a poll with
 * `updated_since` takes what changed at or after it).
 */
export const AS_OF_MARGIN_MS = 5_000;

/** At most this many ids of surveys that left the list are answered with one poll. */
export const LEFT_MAX = 1_000;

/**
 * The surveys that left the supplier's list since `since` (a poll's `closed`): its maps changed
 * since and no longer open (removed, traffic off, not boarded) or on a project no longer live, and
 * survey projects stopped or deleted since (they may have been its inventory). Those it may still
 * send to (a map removed and made again) are left out. In id order, at most LEFT_MAX.
 */
async function leftSince(db: Db, scope: SupplyScope, since: string): Promise<string[]> {
  const live = PROJECT_STATUS.LIVE;
  const [maps, stopped] = await Promise.all([
    db.selectFrom("supplier_maps as m").innerJoin("projects as p", "p.id", "m.projectId").select("p.id")
      .where("m.supplierId", "=", scope.supplierId).where("p.projectType", "=", PROJECT_TYPE.CHILD)
      .where((eb) => eb.or([eb("m.updatedAt", ">=", since), eb("p.updatedAt", ">=", since)]))
      .where(sql<boolean>`NOT (m.isDeleted = 0 AND m.allowTraffic = 1 AND m.isBoarded = 1
        AND p.projectStatus = ${live} AND p.isDeleted = 0)`)
      .orderBy("p.id").limit(LEFT_MAX).execute(),
    db.selectFrom("projects as p").select("p.id")
      .where("p.projectType", "=", PROJECT_TYPE.CHILD).where("p.updatedAt", ">=", since)
      .where((eb) => eb.or([eb("p.projectStatus", "!=", live), eb("p.isDeleted", "=", 1)]))
      .orderBy("p.id").limit(LEFT_MAX).execute(),
  ]);
  const ids = [...new Set([...maps, ...stopped].map((r) => r.id))].sort().slice(0, LEFT_MAX);
  if (!ids.length) return [];
  const still = new Set((await rowsOf(db, scope, { ids, limit: ids.length })).rows.map((r) => r.surveyId));
  return ids.filter((id) => !still.has(id));
}

/**
 * A page of the surveys the supplier may send to, after `cursor`, changed since `updated_since`
 * when given (then the first page also names the surveys that left the list since). Each list is read limit + 1 deep, so the merged first `limit` are the page's and a
 * row beyond them says there is a next page (never a skipped or repeated survey: ids are unique).
 */
export async function listSupplySurveys(
  ctx: Pick<Ctx, "db" | "now">,
  input: SupplyScope & { query: SupplySurveysQuery },
): Promise<SupplySurveyPage> {
  const asOf = new Date(ctx.now() - AS_OF_MARGIN_MS).toISOString();
  const limit = input.query.limit ?? SURVEYS_PAGE_DEFAULT;
  const w: Window = { after: input.query.cursor, since: input.query.updated_since, limit };
  const { rows, supplierType } = await rowsOf(ctx.db, input, w);
  const page = rows.slice(0, limit);
  const since = input.query.updated_since;
  return {
    data: await surveysOf(ctx.db, page, supplierType),
    nextCursor: rows.length > limit ? encodeSurveyCursor(page[page.length - 1].surveyId) : null,
    asOf,
    closed: since && !input.query.cursor ? await leftSince(ctx.db, input, since) : [],
  };
}

/** One survey the supplier may send to; any other id is a 404. */
export async function getSupplySurvey(
  ctx: Pick<Ctx, "db">,
  input: SupplyScope & { surveyId: string },
): Promise<SupplySurvey> {
  const { rows, supplierType } = await rowsOf(ctx.db, input, { only: input.surveyId, limit: 1 });
  if (!rows.length) throw notFound("Survey");
  return (await surveysOf(ctx.db, rows.slice(0, 1), supplierType))[0];
}

/** A survey's quota cells, read live, with the completes the supplier may still deliver. */
export async function supplySurveyQuotas(
  ctx: Pick<Ctx, "db">,
  input: SupplyScope & { surveyId: string },
): Promise<SupplySurveyQuotas> {
  const survey = await getSupplySurvey(ctx, input);
  return { surveyId: survey.id, remaining: survey.remaining, quotas: survey.quotas };
}

/**
 * Starts an inventory survey as the portal's Start does (startInventoryProject: 404 when not open
 * to the supplier, 409 when started already), then answers it as the list shows it.
 */
export async function startSupplySurvey(
  ctx: Ctx,
  input: SupplyScope & { surveyId: string; start: InventoryStart },
): Promise<SupplySurvey> {
  await startInventoryProject(ctx, {
    supplierId: input.supplierId,
    projectId: input.surveyId,
    entryBase: input.entryBase,
    ...input.start,
  });
  return await getSupplySurvey(ctx, input);
}
