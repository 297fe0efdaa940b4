/**
 * A small marketplace (issue 24 item 3's check, the fast version): 10 live surveys with quotas,
 * qualifications on known answers and incidence (a simulated client survey completes a share of
 * those it takes), 500 respondents from 3 suppliers whose profiles come from a fixed seeded
 * distribution (the entry link carries their answers). The same run with routing off and on:
 * completes per 100 entries must be clearly higher with routing on, and every counter must equal
 * its recount.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeParent, makeSupplier } from "../helpers/fixtures.ts";
import { back, liveProject, PANEL, router, type Setup } from "../helpers/router.ts";
import { addLibraryQuestion } from "../helpers/routing.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { rollupMismatches } from "../../server/domain/router/rollup.ts";
import { newId } from "../../server/db/ids.ts";
import { saveSupplierMapCall } from "../../shared/api/supplier-maps.ts";

/** A small seeded generator (mulberry32): the same numbers every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GENDERS = ["Female", "Male"];
const AGES = ["18-24", "25-34", "35-54", "55+"];
const AGE_WEIGHTS = [0.2, 0.3, 0.3, 0.2];
const SURVEYS = 10;
const RESPONDENTS = 500;
const SUPPLIERS = 3;

type Survey = { setup: Setup; incidence: number; maps: string[] };
type Market = { surveys: Survey[]; gender: string[]; age: string[]; genderQ: string; ageQ: string };

/** The surveys, each with a gender and an age qualification, a sample size and an incidence. */
async function buildMarket(t: TestApp, routing: boolean): Promise<Market> {
  const rnd = seeded(7);
  const suppliers: string[] = [];
  for (let i = 0; i < SUPPLIERS; i++) suppliers.push((await makeSupplier(t, { allowRouting: routing }))._id);
  const parent = await makeParent(t);
  const genderQ = newId(), ageQ = newId();
  const gender = GENDERS.map(() => newId()), age = AGES.map(() => newId());
  const surveys: Survey[] = [];
  for (let i = 0; i < SURVEYS; i++) {
    const setup = await liveProject(t, {
      parent,
      supplierId: suppliers[0],
      child: { sampleSize: 12 + Math.floor(rnd() * 14) },
      project: { singleLinkUrl: `https://client.example/s${i}?uid=[uid]`, isPreScreen: true },
      map: { isPreScreen: true, supplierCPI: 1 + Math.round(rnd() * 200) / 100 },
    });
    const maps = [setup.mapId];
    for (const supplierId of suppliers.slice(1)) {
      const m = await t.ok(saveSupplierMapCall, {
        as: "SUPERADMIN",
        body: {
          projectId: setup.child._id,
          supplierId,
          supplierCPI: 1.5,
          isPreScreen: true,
          redirectTerminate: `${PANEL}/t?sid=[sid]`,
          redirectComplete: `${PANEL}/c?sid=[sid]`,
          redirectQuotaFull: `${PANEL}/q?sid=[sid]`,
          redirectSurveyClose: `${PANEL}/x?sid=[sid]`,
          redirectQualityTerm: `${PANEL}/f?sid=[sid]`,
        },
      });
      maps.push(m._id);
    }
    // one gender (or both) and a run of age bands qualify
    const oneGender = rnd() < 0.5 ? Math.floor(rnd() * 2) : -1;
    const from = Math.floor(rnd() * 3), to = from + 1 + Math.floor(rnd() * (4 - from - 1));
    await addLibraryQuestion(t, setup.child._id, {
      libraryId: genderQ,
      title: "Gender",
      options: GENDERS.map((g, k) => ({
        _id: gender[k],
        title: g,
        formvalidate: oneGender < 0 || k === oneGender,
      })),
    });
    await addLibraryQuestion(t, setup.child._id, {
      libraryId: ageQ,
      title: "Age",
      options: AGES.map((a, k) => ({ _id: age[k], title: a, formvalidate: k >= from && k <= to })),
    });
    surveys.push({ setup, incidence: 0.3 + rnd() * 0.4, maps });
  }
  return { surveys, gender, age, genderQ, ageQ };
}

function pick(rnd: () => number, weights: number[]) {
  let x = rnd();
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) < 0) return i;
  return weights.length - 1;
}

/** Every respondent arrives once, answers by link, and the simulated client surveys decide. */
async function run(routing: boolean) {
  const t = await testApp();
  try {
    const m = await buildMarket(t, routing);
    const byUrl = new Map(m.surveys.map((s, i) => [`https://client.example/s${i}`, s]));
    const rnd = seeded(42);
    let completes = 0, hops = 0;
    for (let r = 0; r < RESPONDENTS; r++) {
      const supplier = r % SUPPLIERS;
      const g = Math.floor(rnd() * 2), a = pick(rnd, AGE_WEIGHTS);
      const survey = m.surveys[Math.floor(rnd() * SURVEYS)];
      const link = `/survey/start/${survey.maps[supplier]}?sid=mk-${r}&q_${m.genderQ}=${
        m.gender[g]
      }&q_${m.ageQ}=${m.age[a]}`;
      let at = (await t.app.request(link)).headers.get("location") ?? "";
      for (let guard = 0; guard < 10; guard++) {
        const url = at.startsWith("https://client.example/") ? new URL(at) : null;
        if (!url) break;
        hops++;
        const s = byUrl.get(url.origin + url.pathname)!;
        const letter = rnd() < s.incidence ? "c" : "t";
        at = (await back(t, url.searchParams.get("uid")!, letter)).location;
      }
      assert(at.startsWith(PANEL), `respondent ${r} ends at the supplier: ${at}`);
      if (new URL(at).pathname === "/c" || new URL(at).pathname === "/complete") completes++;
    }
    await router(t).idle();
    assertEquals(await counterMismatches(t.deps.db), [], "counters equal their recount");
    assertEquals(await rollupMismatches(t.deps.db), [], "rollups agree");
    const stored = await t.deps.db.selectFrom("projects").select((eb) =>
      eb.fn.sum<number>("complete").as("n")
    )
      .where("id", "in", m.surveys.map((s) => s.setup.child._id)).executeTakeFirstOrThrow();
    assertEquals(Number(stored.n), completes, "every complete the supplier was told of is counted once");
    return { completes, per100: (completes * 100) / RESPONDENTS, surveysTaken: hops };
  } finally {
    await t.close();
  }
}

Deno.test("marketplace: routing lifts completes per 100 entries over single-survey links", async () => {
  const off = await run(false);
  const on = await run(true);
  console.log(
    `marketplace (${SURVEYS} surveys, ${RESPONDENTS} respondents, ${SUPPLIERS} suppliers): ` +
      `routing off ${
        off.per100.toFixed(1)
      } completes per 100 entries (${off.surveysTaken} client survey visits), ` +
      `routing on ${on.per100.toFixed(1)} (${on.surveysTaken} visits), lift ${
        (on.per100 / off.per100).toFixed(2)
      }x`,
  );
  assert(on.per100 >= off.per100 * 1.3, `routing on ${on.per100} vs off ${off.per100}`);
});
