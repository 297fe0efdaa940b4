/**
 * A simulated marketplace (issue 24's checks): live surveys with realistic sample sizes, quotas,
 * targeting, incidence and LOI, a simulated client survey answering each redirect, and members
 * of several suppliers with profiles drawn from a known distribution, all driven through the real
 * router over HTTP (`request`: app.request in a test, fetch against a server in the bench).
 *
 * Time is simulated in ticks: each tick some members arrive at a survey link of their supplier;
 * a member sent to a client survey returns after the survey's LOI in ticks (complete with the
 * survey's incidence, else terminate after a quarter of it), so sessions are in progress while
 * others arrive, which is what holds are about. A member follows every redirect (pre-screen pages
 * answered from the member's profile, routed hops) until it lands on its supplier's redirect.
 *
 * Everything random comes from one seeded generator: a run with the same seed and options makes
 * the same market and the same members.
 */
import type { TestApp } from "./app.ts";
import { makeChild, makeParent, makeSupplier } from "./fixtures.ts";
import { PANEL, panelRedirects } from "./router.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import { updateProjectCall } from "../../shared/api/projects.ts";
import { saveSupplierMapCall } from "../../shared/api/supplier-maps.ts";

import { seededRandom as seeded } from "../../shared/random.ts";

/** The profile dimensions and the population's distribution over their answers. */
export const DIMENSIONS = {
  Gender: { Male: 0.49, Female: 0.51 },
  Age: { "18-34": 0.36, "35-54": 0.38, "55+": 0.26 },
  Region: { North: 0.22, South: 0.31, East: 0.24, West: 0.23 },
  Car: { Yes: 0.62, No: 0.38 },
} as const;
export type Dimension = keyof typeof DIMENSIONS;
const TITLES: Record<Dimension, string> = {
  Gender: "What is your gender?",
  Age: "How old are you?",
  Region: "Where do you live?",
  Car: "Do you own a car?",
};
const DIMENSION_NAMES = Object.keys(DIMENSIONS) as Dimension[];

function pick<T extends string>(rand: () => number, weights: Record<T, number>): T {
  let x = rand();
  const entries = Object.entries(weights) as [T, number][];
  for (const [k, w] of entries) {
    if ((x -= w) < 0) return k;
  }
  return entries[entries.length - 1][0];
}

export type MarketOptions = {
  seed: number;
  surveys: number;
  suppliers: number;
  members: number;
  /** Members arriving per tick. */
  perTick: number;
  /** Sessions resolved at once (the HTTP concurrency of one tick). */
  concurrency?: number;
  /** The range of the surveys' sample sizes (default 10 to 40: a market short of places). */
  sampleSizes?: [number, number];
};

export type Survey = {
  index: number;
  projectId: string;
  /** The client survey's true incidence among those it receives, and its length in ticks. */
  incidence: number;
  loiTicks: number;
  /** Library question id -> the project copy's question id. */
  copies: Map<string, string>;
  mapIds: string[];
};

export type Market = {
  surveys: Survey[];
  supplierIds: string[];
  /** Library question id and answer (option) ids by dimension and answer text. */
  library: Record<Dimension, { id: string; options: Record<string, string> }>;
  projectIds: string[];
};

/** Builds the market through the back-office API: library questions, qualifications, surveys, suppliers, maps. */
export async function buildMarket(t: TestApp, o: MarketOptions): Promise<Market> {
  const rand = seeded(o.seed);
  const library = {} as Market["library"];
  const qualifications = {} as Record<
    Dimension,
    { _id: string; qualificationOptions: { _id: string; text: string }[] }
  >;
  for (const dim of DIMENSION_NAMES) {
    const answers = Object.keys(DIMENSIONS[dim]);
    const q = await t.ok(Lib.addTempQuestion, {
      as: "SUPERADMIN",
      body: {
        questionTitle: { en: TITLES[dim] },
        questionType: "RADIO",
        questionOption: answers.map((title) => ({ title })),
      },
    }) as { _id: string; questionOption: { _id: string; title: string }[] };
    library[dim] = { id: q._id, options: Object.fromEntries(q.questionOption.map((x) => [x.title, x._id])) };
    qualifications[dim] = await t.ok(Lib.addQualification, {
      as: "SUPERADMIN",
      body: {
        qualificationName: dim,
        qualificationIcon: "user",
        qualificationOptions: answers.map((text) => ({ text })),
      },
    }) as (typeof qualifications)[Dimension];
  }
  const supplierIds: string[] = [];
  for (let i = 0; i < o.suppliers; i++) supplierIds.push((await makeSupplier(t))._id);
  const parent = await makeParent(t);
  const surveys: Survey[] = [];
  for (let index = 0; index < o.surveys; index++) {
    const sampleSize = (o.sampleSizes?.[0] ?? 10) +
      Math.floor(rand() * ((o.sampleSizes?.[1] ?? 40) - (o.sampleSizes?.[0] ?? 10)));
    const incidence = 0.3 + rand() * 0.6;
    const loiTicks = 2 + Math.floor(rand() * 8);
    const child = await makeChild(t, parent, {
      projectName: `Market survey ${index + 1}`,
      sampleSize,
      respondentClickQuota: 0,
      averageLOI: loiTicks * 2,
      ir: Math.round(incidence * 100),
      cpi: (1 + rand() * 3).toFixed(2),
    }) as { _id: string };
    // targeting: one or two dimensions asked; some surveys take only part of an answer set
    const asked = DIMENSION_NAMES.filter(() => rand() < 0.45);
    if (!asked.length) asked.push(DIMENSION_NAMES[Math.floor(rand() * DIMENSION_NAMES.length)]);
    const copies = new Map<string, string>();
    for (const dim of asked) {
      const lib = library[dim];
      const copy = await t.ok(Parts.addProjectQuestion, {
        as: "SUPERADMIN",
        body: { projectId: child._id, questionId: lib.id },
      }) as { _id: string; questionOption: { _id: string; title: string }[] };
      copies.set(lib.id, copy._id);
      const answers = Object.keys(DIMENSIONS[dim]);
      if (rand() < 0.5) {
        // a target: one answer is refused (not the only one)
        const refused = answers[Math.floor(rand() * answers.length)];
        await t.ok(Parts.updateProjectQuestion, {
          as: "SUPERADMIN",
          params: { questionId: copy._id },
          body: {
            projectId: child._id,
            questionTitle: { en: TITLES[dim] },
            questionType: "RADIO",
            questionOption: copy.questionOption.map((x) => ({
              _id: x._id,
              title: x.title,
              formvalidate: x.title !== refused,
            })),
          },
        });
      }
    }
    // a quota on one asked dimension: cells in proportion to the population, summing to the sample size
    const quotaDim = asked.find((d) => d === "Gender" || d === "Age");
    if (quotaDim && rand() < 0.7) {
      const qual = qualifications[quotaDim];
      const [quota] = await t.ok(Parts.addQuotaCall, {
        as: "SUPERADMIN",
        params: { projectId: child._id },
        body: { quotaId: qual._id },
      }) as { _id: string }[];
      const ids = qual.qualificationOptions.map((x) => x._id);
      await t.ok(Parts.updateQuotaCall, {
        as: "SUPERADMIN",
        params: { quotaId: quota._id, projectId: child._id },
        body: { quotaOptionId: ids },
      });
      const weights = DIMENSIONS[quotaDim] as Record<string, number>;
      await t.ok(Parts.updateQuotaSizesCall, {
        as: "SUPERADMIN",
        params: { quotaId: quota._id, projectId: child._id },
        body: {
          quotaValue: qual.qualificationOptions.map((x) => ({
            quotaOptionId: x._id,
            quotaSize: Math.max(1, Math.round(sampleSize * weights[x.text])),
          })),
        },
      });
    }
    await t.ok(updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: child._id },
      body: {
        projectStatus: 1,
        isPreScreen: true,
        singleLinkUrl: `https://client.example/s/${index}?uid=[uid]`,
        singleLinkUrlTest: `https://client.example/test/${index}?uid=[uid]`,
        isDynamicThanksUrl: false,
      },
    });
    const mapIds: string[] = [];
    for (const supplierId of supplierIds) {
      const map = await t.ok(saveSupplierMapCall, {
        as: "SUPERADMIN",
        body: {
          projectId: child._id,
          supplierId,
          supplierCPI: Number((0.6 + rand() * 1.5).toFixed(2)),
          isPreScreen: true,
          ...panelRedirects,
        },
      }) as { _id: string };
      mapIds.push(map._id);
    }
    surveys.push({ index, projectId: child._id, incidence, loiTicks, copies, mapIds });
  }
  return { surveys, supplierIds, library, projectIds: surveys.map((s) => s.projectId) };
}

export type Member = { supplier: number; sid: string; profile: Record<Dimension, string> };

/** The members: each of a supplier, with a profile drawn from DIMENSIONS. */
export function membersOf(o: MarketOptions): Member[] {
  const rand = seeded(o.seed * 7919 + 1);
  return Array.from({ length: o.members }, (_, i) => ({
    supplier: i % o.suppliers,
    sid: `m${i}`,
    profile: Object.fromEntries(
      DIMENSION_NAMES.map((d) => [d, pick(rand, DIMENSIONS[d] as Record<string, number>)]),
    ) as Member["profile"],
  }));
}

/** How the router is reached: a request (path and init) answering a Response. */
export type Request = (path: string, init?: RequestInit) => Response | Promise<Response>;

export type SimResult = {
  entries: number;
  /** Returns the simulated client sent as complete (the router may still turn some over quota). */
  clientCompletes: number;
  /** Sessions the router answered, all hops counted. */
  requests: number;
  questionsAsked: number;
  /** Members lost to a failed request (a killed server). */
  failed: number;
  /** Final outcomes by the supplier redirect the member landed on. */
  outcomes: Record<string, number>;
  ms: number;
};

type Pending = { member: Member; uid: string; due: number; status: "c" | "t" };

/**
 * Runs the members through the market: arrivals per tick at a random survey of their supplier,
 * each followed until the supplier's redirect or a client survey (which answers after its ticks).
 * A request that fails (the server was killed under it) loses that member: counted in `failed`.
 */
export async function runMarket(
  market: Market,
  members: Member[],
  o: MarketOptions,
  request: Request,
  /** Called before each tick (the bench kills and restarts the server in the middle). */
  beforeTick?: (tick: number, membersIn: number) => Promise<void>,
): Promise<SimResult> {
  const rand = seeded(o.seed * 31 + 7);
  const byIndex = market.surveys;
  const result: SimResult = {
    entries: 0,
    clientCompletes: 0,
    requests: 0,
    questionsAsked: 0,
    failed: 0,
    outcomes: {},
    ms: 0,
  };
  const pending: Pending[] = [];
  const started = performance.now();

  const get = async (path: string, init?: RequestInit, body = false) => {
    result.requests++;
    const res = await request(path, { redirect: "manual", ...init });
    const location = res.headers.get("location") ?? "";
    const text = body ? await res.text() : "";
    if (!body) await res.body?.cancel();
    return { status: res.status, location, text };
  };
  const copyDims = new Map<string, Dimension>();
  for (const survey of market.surveys) {
    for (const dim of DIMENSION_NAMES) {
      const copy = survey.copies.get(market.library[dim].id);
      if (copy) copyDims.set(copy, dim);
    }
  }

  /** Follows redirects from `location` until the member is in a client survey or back at its panel. */
  const follow = async (member: Member, location: string, tick: number): Promise<void> => {
    for (let hops = 0; hops < 20; hops++) {
      if (location.startsWith(PANEL)) {
        const outcome = new URL(location).pathname.slice(1);
        result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + 1;
        return;
      }
      const client = /^https:\/\/client\.example\/s\/(\d+)\?uid=([0-9a-f]{24})/.exec(location);
      if (client) {
        const survey = byIndex[Number(client[1])];
        const qualifies = rand() < survey.incidence;
        pending.push({
          member,
          uid: client[2],
          due: tick + (qualifies ? survey.loiTicks : Math.max(1, Math.floor(survey.loiTicks / 4))),
          status: qualifies ? "c" : "t",
        });
        return;
      }
      if (/^\/survey\/prescreen\/[0-9a-f]{24}$/.test(location)) {
        // the page names its questions (q_<project copy id>); the member answers from its profile
        const page = await get(location, undefined, true);
        const form = new URLSearchParams();
        for (const name of new Set(page.text.match(/name="q_[0-9a-f]{24}"/g) ?? [])) {
          const copyId = name.slice(8, -1);
          const dim = copyDims.get(copyId);
          if (!dim) throw new Error(`a pre-screen question the market did not make: ${copyId}`);
          form.set(`q_${copyId}`, market.library[dim].options[member.profile[dim]]);
        }
        result.questionsAsked += [...form.keys()].length;
        location = (await get(location, { method: "POST", body: form })).location;
        continue;
      }
      if (location.startsWith("/survey/")) {
        location = (await get(location)).location;
        continue;
      }
      throw new Error(`unexpected redirect: ${location || "(none)"}`);
    }
    throw new Error("more than 20 redirects");
  };

  const concurrency = o.concurrency ?? 16;
  /**
   * Runs the items `concurrency` at a time, each worker taking the next item as soon as its last one
   * is done (a pool, as a panel's traffic keeps arriving): in lock-step groups, every group would
   * wait for its slowest member, and the figure would measure that wait, not the router.
   */
  const inPool = async <T>(items: T[], run: (x: T) => Promise<void>) => {
    let i = 0;
    const worker = async () => {
      while (i < items.length) await run(items[i++]);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  };

  const safely = (run: (x: Pending | Member) => Promise<void>) => async (x: Pending | Member) => {
    try {
      await run(x);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      result.failed++;
    }
  };
  let next = 0;
  for (let tick = 0; next < members.length || pending.length; tick++) {
    await beforeTick?.(tick, next);
    // returns due now
    const due = pending.filter((p) => p.due <= tick);
    for (const p of due) pending.splice(pending.indexOf(p), 1);
    // then arrivals, in the same pool: the returns first
    const arriving = members.slice(next, next + o.perTick);
    next += arriving.length;
    await inPool<Pending | Member>(
      [...due, ...arriving],
      safely(async (x) => {
        if ("due" in x) {
          const r = await get(`/survey/end?status=${x.status}&uid=${x.uid}`);
          if (x.status === "c") result.clientCompletes++;
          await follow(x.member, r.location, tick);
          return;
        }
        result.entries++;
        const survey = byIndex[Math.floor(rand() * byIndex.length)];
        const r = await get(`/survey/start/${survey.mapIds[x.supplier]}?sid=${encodeURIComponent(x.sid)}`);
        await follow(x, r.location, tick);
      }),
    );
  }
  result.ms = performance.now() - started;
  return result;
}

export type MarketFigures = {
  entries: number;
  completes: number;
  completesPer100: number;
  /** Completes the client sent that the router turned over quota at return. */
  turnedOverQuota: number;
  /** Completes counted past a limit (a project's sample size, a map's quota, a quota cell). */
  pastLimit: number;
  /** (turnedOverQuota + pastLimit) as a share of the completes. */
  overshootShare: number;
  questionsPerEntry: number;
  /** Router answers per second over the run. */
  requestsPerSecond: number;
};

/** The run's figures, read from the database the router wrote. */
export async function marketFigures(
  db: TestApp["deps"]["db"],
  market: Market,
  r: SimResult,
): Promise<MarketFigures> {
  const projects = await db.selectFrom("projects").select(["id", "complete", "sampleSize"])
    .where("id", "in", market.projectIds).execute();
  const completes = projects.reduce((n, p) => n + Number(p.complete), 0);
  let pastLimit = projects.reduce((n, p) => n + Math.max(0, Number(p.complete) - Number(p.sampleSize)), 0);
  const quotas = await db.selectFrom("project_quotas").select("quotaValue")
    .where("projectId", "in", market.projectIds).where("isDeleted", "=", 0).execute();
  for (const q of quotas) {
    for (const cell of JSON.parse(q.quotaValue) as { quotaSize: number; completes?: number }[]) {
      if (Number(cell.quotaSize) > 0) {
        pastLimit += Math.max(0, Number(cell.completes ?? 0) - Number(cell.quotaSize));
      }
    }
  }
  const turnedOverQuota = Math.max(0, r.clientCompletes - completes);
  return {
    entries: r.entries,
    completes,
    completesPer100: r.entries ? (100 * completes) / r.entries : 0,
    turnedOverQuota,
    pastLimit,
    overshootShare: completes ? (turnedOverQuota + pastLimit) / completes : 0,
    questionsPerEntry: r.entries ? r.questionsAsked / r.entries : 0,
    requestsPerSecond: r.ms ? (1000 * r.requests) / r.ms : 0,
  };
}
