/** A live child project with a mapped supplier, and respondent traffic through app.request(). */
import { LIVE_COUNTERS } from "../../server/db/tables/projects.ts";
import type { TestApp } from "./app.ts";
import { makeChild, makeParent, makeSupplier } from "./fixtures.ts";
import { projectSecret } from "../../server/domain/router/config.ts";
import { returnSignature } from "../../server/domain/router/links.ts";
import { newId } from "../../server/db/ids.ts";

export const PANEL = "https://panel.example";
export const panelRedirects = {
  redirectComplete: `${PANEL}/complete?sid=[sid]&pid=[pid]&uid=[uid]`,
  redirectTerminate: `${PANEL}/terminate?sid=[sid]`,
  redirectQuotaFull: `${PANEL}/quotafull?sid=[sid]`,
  redirectQualityTerm: `${PANEL}/quality?sid={sid}`,
  redirectSurveyClose: `${PANEL}/closed?sid=[sid]`,
};
export const CLIENT_URL = "https://client.example/survey?uid=[uid]&src=samplex";

export type Setup = Awaited<ReturnType<typeof liveProject>>;

async function must(t: TestApp, method: string, path: string, body: unknown) {
  const r = await t.call(method, path, { token: await t.tokenFor("SUPERADMIN"), body });
  if (r.status !== 200) throw new Error(`${method} ${path} gave ${r.status}: ${r.text}`);
  return r.json.result;
}

/** Parent + Live child (signed returns off unless asked) + a boarded supplier map with redirects. */
export async function liveProject(
  t: TestApp,
  opts: {
    child?: Record<string, unknown>;
    project?: Record<string, unknown>;
    map?: Record<string, unknown>;
    supplier?: Record<string, unknown>;
    supplierId?: string;
    parent?: { _id: string; clientId: string };
  } = {},
) {
  const parent = opts.parent ?? await makeParent(t);
  const child = await makeChild(t, parent, { sampleSize: 100, respondentClickQuota: 0, ...opts.child });
  const project = await must(t, "PUT", `/admin/project/update/${child._id}`, {
    projectStatus: 1,
    singleLinkUrl: CLIENT_URL,
    singleLinkUrlTest: "https://client.example/test?uid={uid}",
    isDynamicThanksUrl: false,
    ...opts.project,
  });
  const supplierId = opts.supplierId ?? (await makeSupplier(t, opts.supplier))._id;
  const map = await must(t, "POST", "/admin/supplierMap/add", {
    projectId: child._id,
    supplierId,
    supplierCPI: 1.25,
    ...panelRedirects,
    ...opts.map,
  });
  return { parent, child: project, project, supplierId, map, mapId: map._id as string };
}

export type Hit = { status: number; location: string; text: string };

export async function hit(t: TestApp, path: string, headers: Record<string, string> = {}): Promise<Hit> {
  const res = await t.app.request(path, { headers });
  return { status: res.status, location: res.headers.get("location") ?? "", text: await res.text() };
}

export const enter = (t: TestApp, mapId: string, sid: string, headers: Record<string, string> = {}) =>
  hit(t, `/survey/start/${mapId}?sid=${encodeURIComponent(sid)}`, headers);
export const enterTest = (t: TestApp, mapId: string, sid: string, headers: Record<string, string> = {}) =>
  hit(t, `/survey/test/${mapId}?sid=${encodeURIComponent(sid)}`, headers);

/** An entry from a client at `ip` (the socket address Deno.serve passes) with a user agent. */
export async function enterFrom(
  t: TestApp,
  mapId: string,
  sid: string,
  from: { ip: string; userAgent: string },
): Promise<Hit> {
  const res = await t.app.request(
    `/survey/start/${mapId}?sid=${encodeURIComponent(sid)}`,
    { headers: { "user-agent": from.userAgent } },
    { remoteAddr: { hostname: from.ip, port: 40000, transport: "tcp" } },
  );
  return { status: res.status, location: res.headers.get("location") ?? "", text: await res.text() };
}

/** The uid the client received in its survey link. */
export function uidOf(location: string): string {
  const uid = new URL(location).searchParams.get("uid");
  if (!uid) throw new Error(`no uid in ${location}`);
  return uid;
}

export async function sig(t: TestApp, projectId: string, uid: string, letter: string) {
  return returnSignature(await projectSecret(t.deps.db, projectId), uid, letter);
}

export const back = (t: TestApp, uid: string, status: string, sigValue?: string) =>
  hit(t, `/survey/end?status=${status}&uid=${uid}${sigValue ? `&sig=${sigValue}` : ""}`);

/** The live counters of a project and of a supplier map. */
export async function counts(t: TestApp, table: "projects" | "supplier_maps", id: string) {
  return await t.deps.db.selectFrom(table).select(LIVE_COUNTERS).where("id", "=", id)
    .executeTakeFirstOrThrow();
}

export async function sessionsOf(t: TestApp, projectId: string) {
  return await t.deps.db.selectFrom("sessions").selectAll().where("projectId", "=", projectId)
    .orderBy("createdAt").orderBy("sid").orderBy("id").execute();
}

/** A pre-screen question on the project, written the way the question tab stores it. */
export async function addQuestion(
  t: TestApp,
  projectId: string,
  q: {
    type: "TEXT" | "RADIO" | "DROPDOWN" | "CHECKBOX" | "MAP";
    title: Record<string, string>;
    options?: { title: string; formvalidate?: boolean; enable?: boolean; diy?: boolean; local?: boolean }[];
    sortOrder?: number;
  },
) {
  const id = newId();
  const now = new Date().toISOString();
  const options = (q.options ?? []).map((o) => ({
    _id: newId(),
    title: o.title,
    enable: o.enable ?? true,
    formvalidate: o.formvalidate ?? true,
    diy: o.diy ?? true,
    local: o.local ?? true,
    quota: 0,
  }));
  await t.deps.db.insertInto("questions").values({
    id,
    projectId,
    isTempQuestion: 0,
    languageId: "en",
    questionTitle: JSON.stringify(q.title),
    questionType: q.type,
    questionOption: JSON.stringify(options),
    sortOrder: q.sortOrder ?? 1,
    isActive: 1,
    isDeleted: 0,
    createdAt: now,
    updatedAt: now,
  }).execute();
  return { id, options };
}

export const router = (t: TestApp) => t.deps.services.router;

/**
 * Mixed respondent traffic spread over `apps` (instances on one database): `n` entries (a few
 * repeated sids, so duplicates), then returns of about two thirds of those let in (complete,
 * terminate, quota full in turn), and a handful of test entries. Answers the redirect locations.
 */
export async function mixedTraffic(apps: TestApp[], mapId: string, n: number, tag = "mx"): Promise<string[]> {
  const at = (i: number) => apps[i % apps.length];
  const entries = await Promise.all(
    Array.from({ length: n }, (_, i) => enter(at(i), mapId, `${tag}-${i % 7 === 6 ? i - 1 : i}`)),
  );
  const letters = ["c", "t", "q"];
  const returns = await Promise.all(entries.map(async (e, i) => {
    if (!e.location.startsWith("https://client.example") || i % 3 === 2) return e.location;
    return (await back(at(i + 1), uidOf(e.location), letters[i % 3 === 0 ? (i >> 1) % 3 : 0])).location;
  }));
  await Promise.all(Array.from({ length: 5 }, (_, i) => enterTest(at(i), mapId, `${tag}-test-${i}`)));
  return returns;
}
