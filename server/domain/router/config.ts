/**
 * What the router needs to know about a supplier map and its project, read once and kept in memory:
 * the hot path reads no configuration from the database. Entries are dropped when the admin
 * changes a map, a project or a supplier (every cached map of that supplier): the app's change
 * notifier (deps.services.changes, domain/common/changes.ts) says so, and expire after `ttlMs` so edits made elsewhere (another app
 * instance, the quota, question and exclusion tabs) are seen soon.
 *
 * Nothing here holds a count: decisions that depend on counts are made by the writer inside its
 * write transaction.
 */
import type { Db } from "../../db/connection.ts";
import type { ChangeNotifier } from "../common/changes.ts";
import { parseJsonList, randomKey } from "../common/values.ts";
import { returnUrlOf } from "../../../shared/api/supplier-maps.ts";
import { CLIENT_API_COLUMNS, type ClientApi } from "./client-api-fields.ts";
export type { ClientApi };

export type Redirects = {
  complete: string;
  terminate: string;
  quotaFull: string;
  qualityTerm: string;
  surveyClose: string;
};

export type MapConfig = {
  id: string;
  projectId: string;
  supplierId: string;
  supplierName: string;
  /** 1 DIY, 2 Local: pre-screen options can be shown to one kind only. */
  supplierType: number;
  supplierCPI: number;
  isPreScreen: boolean;
  isTestLink: boolean;
  allowTraffic: boolean;
  isBoarded: boolean;
  isDeleted: boolean;
  /** Why the supplier itself takes no traffic ("supplier deleted", "supplier inactive"), or "". */
  supplierOff: string;
  /** Where respondents go back to per status: the map's link, else the supplier's own, else "". */
  redirects: Redirects;
  /** The supplier's approved hook (blank: none): its complete (and approval) callback URL. */
  approvedHook: string;
  /** The supplier's callback URL per other outcome (blank: none). */
  callbacks: { terminate: string; overquota: string; quality: string };
  /** The supplier opted in to routing (routing.ts). */
  supplierRouting: boolean;
};

export type PrescreenOption = {
  _id: string;
  title: string;
  enable: boolean;
  /** false: choosing this option disqualifies (PT). */
  formvalidate: boolean;
  diy: boolean;
  local: boolean;
};

export type PrescreenQuestion = {
  id: string;
  type: "TEXT" | "RADIO" | "DROPDOWN" | "CHECKBOX" | "MAP";
  title: Record<string, string>;
  languageId: string;
  options: PrescreenOption[];
  /** The library question it was copied from (a member's known answer stands for it), or null. */
  libraryId?: string | null;
};

export type ExclusionRule = {
  excludedProjectId: string;
  /** true: respondents of that project are refused; false: only they are let in. */
  isExcluded: boolean;
  complete: boolean;
  terminate: boolean;
  overQuota: boolean;
  dropout: boolean;
};

/**
 * One project quota as the router matches it: its cells, each a set of groups (one per qualification
 * of the quota) of option texts (normalized); an answer set falls in a cell when every group has one
 * of the answers. A hand-made cell is one option ([["female"]]); a provider quota over a set of
 * answers of one question is one cell whose one group holds them all ([["18-24", "25-34"]]: one limit
 * for the set, OR within the question); an interlocked cell has a group per qualification (Gender x
 * Age: [["female"], ["18-24", "25-34"]]).
 */
export type QuotaDef = {
  id: string;
  qualificationId: string;
  /** Each cell's option groups (texts answers match) and its size as configured (0: none set). */
  cells: { id: string; groups: Set<string>[]; size: number }[];
};

/**
 * A cell as stored in quotaValue. `options`, where present, are the option-id groups of the cell, one
 * per qualification of the quota (a grouped or interlocked cell); absent, the cell is the one option
 * its quotaOptionId names (the Quota tab's cells).
 */
export type StoredCell = { quotaOptionId: string; options?: unknown; quotaSize?: unknown };

/** The option-id groups of a cell that names them (a broken value: none, so the cell matches nobody). */
export function cellGroups(cell: StoredCell): string[][] {
  const o = cell.options;
  if (!Array.isArray(o) || !o.length) return [];
  return o.map((g) => Array.isArray(g) ? g.map(String) : []);
}

/** Whether a stored cell names its option groups (a set of answers, or a combination). */
export const isGroupedCell = (cell: StoredCell) => cell.options !== undefined;

export type ProjectConfig = {
  id: string;
  projectType: number;
  parentProjectId: string | null;
  projectCode: string;
  projectName: string;
  clientId: string;
  projectStatus: number;
  isDeleted: boolean;
  cpi: number;
  averageLOI: number;
  languageId: string;
  countryId: string | null;
  isMultiLinkUrl: boolean;
  singleLinkUrl: string;
  singleLinkUrlTest: string;
  isDynamicThanksUrl: boolean;
  isGeoLocation: boolean;
  isPreScreen: boolean;
  isExclude: boolean;
  isMobile: boolean;
  isDesktop: boolean;
  isTablet: boolean;
  isSpeeder: boolean;
  isProxyVpn: boolean;
  isUniqueIp: boolean;
  isRDLow: boolean;
  isRDMedium: boolean;
  isRDHigh: boolean;
  maxIPCount: number;
  speedTime: number;
  /** Routes its refused respondents and takes routed ones (routing.ts). */
  allowRouting: boolean;
  /** The client's measured incidence (%), the conversion's prior before there is data. */
  ir: number;
  /** Key of the signed return links (HMAC-SHA256). */
  secret: string;
  questions: PrescreenQuestion[];
  exclusions: ExclusionRule[];
  quotas: QuotaDef[];
  /** The client's API fields when it is API-integrated (each respondent's link comes from its platform), else null. */
  clientApi: ClientApi | null;
  /** The client's link is its own screener (isScreenUrlIntegration): Samplex's pre-screen is not shown. */
  clientScreens: boolean;
};

type Entry<T> = { value: T; at: number };

export class RouterConfig {
  #maps = new Map<string, Entry<MapConfig | null>>();
  #projects = new Map<string, Entry<ProjectConfig | null>>();
  #loading = new Map<string, Promise<unknown>>();
  #unsubscribe: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    /** The app's change notifier: what it tells is forgotten at once. */
    changes: ChangeNotifier,
    private readonly ttlMs = 5_000,
    /** The clock the cache ages by (deps.now). */
    private readonly clock: () => number = Date.now,
  ) {
    this.#unsubscribe.push(changes.on("supplierMap", (id) => this.#maps.delete(id)));
    this.#unsubscribe.push(changes.on("project", (id) => this.invalidateProject(id)));
    this.#unsubscribe.push(changes.on("supplier", (id) => this.invalidateSupplier(id)));
  }

  /** Forgets every cached map of a supplier (its status, type, name or hook changed). */
  invalidateSupplier(supplierId: string) {
    for (const [id, e] of this.#maps) {
      if (!e.value || e.value.supplierId === supplierId) this.#maps.delete(id);
    }
  }

  /** Forgets a project (and, for a parent, nothing else is cached: children carry their own rows). */
  invalidateProject(id: string) {
    this.#projects.delete(id);
  }

  /** Forgets everything (tests, after direct table edits). */
  clear() {
    this.#maps.clear();
    this.#projects.clear();
  }

  close() {
    this.#unsubscribe.forEach((f) => f());
  }

  /** The map (deleted ones too: their respondents still return), or null when there is none. */
  map(id: string, now = this.clock()): MapConfig | null | Promise<MapConfig | null> {
    const hit = this.#maps.get(id);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    return this.#once(`m:${id}`, async () => {
      const value = await this.#loadMap(id);
      this.#maps.set(id, { value, at: this.clock() });
      return value;
    });
  }

  project(id: string, now = this.clock()): ProjectConfig | null | Promise<ProjectConfig | null> {
    const hit = this.#projects.get(id);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    return this.#once(`p:${id}`, async () => {
      const value = await this.#loadProject(id);
      this.#projects.set(id, { value, at: this.clock() });
      return value;
    });
  }

  #once<T>(key: string, load: () => Promise<T>): Promise<T> {
    const pending = this.#loading.get(key);
    if (pending) return pending as Promise<T>;
    const p = load().finally(() => this.#loading.delete(key));
    this.#loading.set(key, p);
    return p;
  }

  async #loadMap(id: string): Promise<MapConfig | null> {
    const r = await this.db.selectFrom("supplier_maps")
      .leftJoin("suppliers", "suppliers.id", "supplier_maps.supplierId")
      .select([
        "supplier_maps.id",
        "supplier_maps.projectId",
        "supplier_maps.supplierId",
        "supplier_maps.supplierCPI",
        "supplier_maps.isPreScreen",
        "supplier_maps.isTestLink",
        "supplier_maps.allowTraffic",
        "supplier_maps.isBoarded",
        "supplier_maps.isDeleted",
        "supplier_maps.redirectComplete",
        "supplier_maps.redirectTerminate",
        "supplier_maps.redirectQuotaFull",
        "supplier_maps.redirectQualityTerm",
        "supplier_maps.redirectSurveyClose",
        "suppliers.redirectComplete as supplierComplete",
        "suppliers.redirectTerminate as supplierTerminate",
        "suppliers.redirectQuotaFull as supplierQuotaFull",
        "suppliers.redirectQualityTerm as supplierQualityTerm",
        "suppliers.redirectSurveyClose as supplierSurveyClose",
        "suppliers.supplierName",
        "suppliers.supplierType",
        "suppliers.supplierApprovedHook",
        "suppliers.callbackTerminate",
        "suppliers.callbackOverQuota",
        "suppliers.callbackQualityTerm",
        "suppliers.isDeleted as supplierIsDeleted",
        "suppliers.isActive as supplierIsActive",
        "suppliers.allowRouting as supplierRouting",
      ])
      .where("supplier_maps.id", "=", id).executeTakeFirst();
    if (!r) return null;
    return {
      id: r.id,
      projectId: r.projectId,
      supplierId: r.supplierId,
      supplierName: r.supplierName ?? "",
      supplierType: r.supplierType ?? 1,
      supplierCPI: r.supplierCPI,
      isPreScreen: r.isPreScreen === 1,
      isTestLink: r.isTestLink === 1,
      allowTraffic: r.allowTraffic === 1,
      isBoarded: r.isBoarded === 1,
      isDeleted: r.isDeleted === 1,
      supplierOff: r.supplierIsDeleted !== 0
        ? "supplier deleted"
        : r.supplierIsActive !== 1
        ? "supplier inactive"
        : "",
      // the map's return links, each left empty falling back to the supplier's own (a supplier
      // change drops the cached map: the notifier's supplier topic)
      redirects: {
        complete: returnUrlOf(r.redirectComplete, r.supplierComplete),
        terminate: returnUrlOf(r.redirectTerminate, r.supplierTerminate),
        quotaFull: returnUrlOf(r.redirectQuotaFull, r.supplierQuotaFull),
        qualityTerm: returnUrlOf(r.redirectQualityTerm, r.supplierQualityTerm),
        surveyClose: returnUrlOf(r.redirectSurveyClose, r.supplierSurveyClose),
      },
      approvedHook: (r.supplierApprovedHook ?? "").trim(),
      callbacks: {
        terminate: (r.callbackTerminate ?? "").trim(),
        overquota: (r.callbackOverQuota ?? "").trim(),
        quality: (r.callbackQualityTerm ?? "").trim(),
      },
      supplierRouting: r.supplierRouting === 1,
    };
  }

  async #loadProject(id: string): Promise<ProjectConfig | null> {
    const p = await this.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
    if (!p) return null;
    const [questions, exclusions, quotas, secret, client] = await Promise.all([
      this.db.selectFrom("questions").select([
        "id",
        "questionType",
        "questionTitle",
        "questionOption",
        "languageId",
        "libraryQuestionId",
      ])
        .where("projectId", "=", id).where("isTempQuestion", "=", 0).where("isDeleted", "=", 0)
        .where("isActive", "=", 1).orderBy("sortOrder").orderBy("createdAt").orderBy("id").execute(),
      this.db.selectFrom("project_exclusions").selectAll().where("projectId", "=", id)
        .where("isDeleted", "=", 0).execute(),
      this.#loadQuotas(id),
      projectSecret(this.db, id, this.clock),
      this.db.selectFrom("clients").select([
        "isApiIntegration",
        "isScreenUrlIntegration",
        ...CLIENT_API_COLUMNS,
      ])
        .where("id", "=", p.clientId).executeTakeFirst(),
    ]);
    return {
      id: p.id,
      projectType: p.projectType,
      parentProjectId: p.parentProjectId,
      projectCode: p.projectCode,
      projectName: p.projectName,
      clientId: p.clientId,
      projectStatus: p.projectStatus,
      isDeleted: p.isDeleted === 1,
      cpi: p.cpi,
      averageLOI: p.averageLOI,
      languageId: (p.languageId || "en").toLowerCase(),
      countryId: p.countryId ? p.countryId.toUpperCase() : null,
      isMultiLinkUrl: p.isMultiLinkUrl === 1,
      singleLinkUrl: p.singleLinkUrl,
      singleLinkUrlTest: p.singleLinkUrlTest,
      isDynamicThanksUrl: p.isDynamicThanksUrl === 1,
      isGeoLocation: p.isGeoLocation === 1,
      isPreScreen: p.isPreScreen === 1,
      isExclude: p.isExclude === 1,
      isMobile: p.isMobile === 1,
      isDesktop: p.isDesktop === 1,
      isTablet: p.isTablet === 1,
      isSpeeder: p.isSpeeder === 1,
      isProxyVpn: p.isProxyVpn === 1,
      isUniqueIp: p.isUniqueIp === 1,
      isRDLow: p.isRDLow === 1,
      isRDMedium: p.isRDMedium === 1,
      isRDHigh: p.isRDHigh === 1,
      maxIPCount: p.maxIPCount,
      speedTime: p.speedTime,
      allowRouting: p.allowRouting === 1,
      ir: Number(p.ir),
      secret,
      questions: questions.map((q) => ({
        id: q.id,
        type: q.questionType as PrescreenQuestion["type"],
        title: parseTitle(q.questionTitle),
        languageId: q.languageId,
        libraryId: q.libraryQuestionId,
        options: parseOptions(q.questionOption),
      })),
      exclusions: exclusions.map((e) => ({
        excludedProjectId: e.excludedProjectId,
        isExcluded: e.isExcluded === 1,
        complete: e.complete === 1,
        terminate: e.terminate === 1,
        overQuota: e.overQuota === 1,
        dropout: e.dropout === 1,
      })),
      quotas,
      clientApi: client?.isApiIntegration === 1
        ? { clientId: p.clientId, ...pick(client, CLIENT_API_COLUMNS) }
        : null,
      clientScreens: client?.isScreenUrlIntegration === 1,
    };
  }

  async #loadQuotas(projectId: string): Promise<QuotaDef[]> {
    const rows = await this.db.selectFrom("project_quotas").select([
      "id",
      "qualificationId",
      "qualificationIds",
      "quotaValue",
    ])
      .where("projectId", "=", projectId).where("isDeleted", "=", 0).execute();
    if (!rows.length) return [];
    const interlocked = new Map(
      rows.map((r) => [r.id, parseJsonList<string>(r.qualificationIds).map(String)]),
    );
    const qualificationIds = new Set(rows.map((r) => r.qualificationId));
    for (const ids of interlocked.values()) ids.forEach((id) => qualificationIds.add(id));
    const options = await this.db.selectFrom("qualification_options").select([
      "id",
      "qualificationId",
      "text",
    ])
      .where("qualificationId", "in", [...qualificationIds]).execute();
    const textOf = new Map(options.map((o) => [o.id, normText(o.text)]));
    const qualificationOf = new Map(options.map((o) => [o.id, o.qualificationId]));
    return rows.map((r) => {
      const ids = interlocked.get(r.id) ?? [];
      const own = ids.length > 1 ? ids : [r.qualificationId];
      // a group's option ids become the texts answers are matched by; an option of another
      // qualification than the group's matches nobody
      const texts = (group: string[], qualificationId: string) =>
        new Set(
          group.filter((id) => qualificationOf.get(id) === qualificationId).map((id) => textOf.get(id)!),
        );
      const cells = parseJsonList<StoredCell>(r.quotaValue).map((c) => ({
        id: String(c.quotaOptionId),
        groups: isGroupedCell(c)
          ? cellGroups(c).map((g, i) => texts(g, own[i]))
          : [texts([String(c.quotaOptionId)], r.qualificationId)],
        size: Number(c.quotaSize) || 0,
      })).filter((c) => c.groups.length === own.length && c.groups.every((g) => g.size > 0));
      return { id: r.id, qualificationId: r.qualificationId, cells };
    });
  }
}

/** A question's stored options (questions.questionOption) as the pre-screen reads them. */
export function parseOptions(text: string): PrescreenOption[] {
  return parseJsonList<Partial<PrescreenOption>>(text).map((o, i) => ({
    _id: String(o._id ?? i),
    title: String(o.title ?? ""),
    enable: o.enable !== false,
    formvalidate: o.formvalidate !== false,
    diy: o.diy !== false,
    local: o.local !== false,
  }));
}

function pick<T extends Record<string, unknown>, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;
}

export const normText = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");

function parseTitle(text: string): Record<string, string> {
  try {
    const v = JSON.parse(text);
    if (typeof v === "string") return { en: v };
    return v && typeof v === "object" ? v as Record<string, string> : {};
  } catch {
    return { en: text };
  }
}

/**
 * The key clients sign return links with (hex HMAC-SHA256 of uid + status): one per project,
 * made on first use and kept in project_secrets (never in the projects table, which many screens read).
 */
export async function projectSecret(
  db: Db,
  projectId: string,
  now: () => number = Date.now,
): Promise<string> {
  const row = await db.selectFrom("project_secrets").select("secret").where("projectId", "=", projectId)
    .executeTakeFirst();
  if (row) return row.secret;
  await db.insertInto("project_secrets").values({
    projectId,
    secret: randomKey(32),
    createdAt: new Date(now()).toISOString(),
  }).onConflict((oc) => oc.doNothing()).execute();
  const kept = await db.selectFrom("project_secrets").select("secret").where("projectId", "=", projectId)
    .executeTakeFirstOrThrow();
  return kept.secret;
}
