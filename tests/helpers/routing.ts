/** Routing tests' fixtures: library pre-screen questions on a project (issue 24 items 1 and 3). */
import type { TestApp } from "./app.ts";
import { newId } from "../../server/db/ids.ts";

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
