/** Routing tests' fixtures: a market of live surveys, chains, library pre-screen questions (issue 24). */
import type { TestApp } from "./app.ts";
import { newId } from "../../server/db/ids.ts";
import { makeParent, makeSupplier } from "./fixtures.ts";
import { liveProject, type Setup } from "./router.ts";

/**
 * A pre-screen question copied from the library (`libraryId`): its options' ids are the library's
 * answer ids, so a member's known answer stands for it; an option with `formvalidate` false disqualifies.
 */
export async function addLibraryQuestion(
  t: TestApp,
  projectId: string,
  q: { libraryId: string; title: string; options: { _id: string; title: string; formvalidate: boolean }[] },
) {
  const now = new Date().toISOString();
  await t.deps.db.insertInto("questions").values({
    id: newId(),
    projectId,
    isTempQuestion: 0,
    languageId: "en",
    questionTitle: JSON.stringify({ en: q.title }),
    questionType: "RADIO",
    questionOption: JSON.stringify(
      q.options.map((o) => ({ ...o, enable: true, diy: true, local: true, quota: 0 })),
    ),
    sortOrder: 1,
    isActive: 1,
    isDeleted: 0,
    createdAt: now,
    updatedAt: now,
    libraryQuestionId: q.libraryId,
  }).execute();
}

/** Turns routing on or off for a simulated market (tests/helpers/marketplace.ts): its suppliers and surveys. */
export async function setMarketRouting(
  t: TestApp,
  market: { supplierIds: string[]; projectIds: string[] },
  on: boolean,
) {
  const flag = on ? 1 : 0;
  await t.deps.db.updateTable("suppliers").set({ allowRouting: flag }).where("id", "in", market.supplierIds)
    .execute();
  await t.deps.db.updateTable("projects").set({ allowRouting: flag }).where("id", "in", market.projectIds)
    .execute();
  t.deps.services.router.config.clear();
}

/** `n` live surveys of one opted-in supplier (a survey's client link names it: .../<name>?uid=). */
export async function market(
  t: TestApp,
  names: string[],
  opts: { supplier?: Record<string, unknown>; cpi?: Record<string, number> } = {},
) {
  const supplierId = (await makeSupplier(t, { allowRouting: true, ...opts.supplier }))._id;
  const parent = await makeParent(t);
  const out: Record<string, Setup> = {};
  for (const name of names) {
    out[name] = await liveProject(t, {
      parent,
      supplierId,
      project: { singleLinkUrl: `https://client.example/${name}?uid=[uid]` },
      map: { supplierCPI: opts.cpi?.[name] ?? 1.25 },
    });
  }
  return { supplierId, s: out };
}

/** Which survey a client link belongs to (its path), or "" for any other place. */
export const surveyOf = (location: string) =>
  location.startsWith("https://client.example/") ? new URL(location).pathname.slice(1) : "";

export async function chainOf(t: TestApp, sid: string) {
  return await t.deps.db.selectFrom("sessions").select(["id", "projectId", "status", "chainId", "hop"])
    .where("sid", "=", sid).orderBy("hop").execute();
}
