/**
 * Demo projects and 90 days of respondent traffic. Projects, children, their pre-screen questions,
 * quotas (on the demo qualifications), security settings, multi-link lists and supplier maps are
 * made by the projects domain; every click, pre-screen answer, return and drop goes through the real
 * router functions with an injected clock, so counters, daily rollups and sessions agree exactly
 * as they would in production. Random choices come from a seeded generator: the demo is the same
 * on every machine.
 */
import { seedAccounts } from "./accounts.ts";
import * as v from "valibot";
import type { Deps } from "../deps.ts";
import { SYSTEM_ACTOR } from "../domain/audit/log.ts";
import { ChildProject, GroupProject, ProjectPatch, SupplierMapForm } from "../../shared/schemas/project.ts";
import { QuestionForm } from "../../shared/schemas/library.ts";
import type { Caller } from "../domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../domain/projects/create.ts";
import { updateProject } from "../domain/projects/update.ts";
import { setStatus } from "../domain/projects/status.ts";
import { isFinishedStatus, PROJECT_STATUS, type ProjectStatus } from "../../shared/status.ts";
import { saveSupplierMap } from "../domain/projects/supplier-maps.ts";
import { addQuota, updateQuota, updateQuotaSizes } from "../domain/projects/quotas.ts";
import { createQuestion } from "../domain/library/questions.ts";
import { Router } from "../domain/router/router.ts";
import { projectSecret } from "../domain/router/config.ts";
import { returnSignature } from "../domain/router/links.ts";
import { STATUS_LETTER } from "../domain/router/outcomes.ts";
import { seedReconcile } from "./reconcile.ts";
import { reconcileStatus } from "../domain/reconcile/status.ts";

const DAY = 86_400_000;

/** mulberry32: small, fast, good enough for demo data. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = {
  desktop:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  mac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15",
  mobile:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  tablet:
    "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
};

type ChildPlan = {
  name: string;
  country: string;
  language?: string;
  loi: number;
  ir: number;
  cpi: number;
  sampleSize: number;
  /** Days ago the field work started and ended (0 = still running). */
  from: number;
  to: number;
  perDay: number;
  /** Final status after the field work. */
  status: ProjectStatus;
  suppliers: number[];
  security?: Record<string, unknown>;
  /** Pre-screen questions (the project then pre-screens): titles per language, options, disqualifying ones. */
  questions?: { title: Record<string, string>; options: string[]; bad?: string[] }[];
  /** Quotas on demo qualifications: the chosen options' sizes, by option text. */
  quotas?: { qualification: string; sizes: Record<string, number> }[];
  /** A multi-link project: this many client links, each handed to one respondent. */
  multiLinks?: number;
  /** Share of those sent to the survey who complete. */
  completeRate: number;
};

type ParentPlan = {
  name: string;
  client: number;
  loi: number;
  ir: number;
  po?: string;
  children: ChildPlan[];
};

const PLANS: ParentPlan[] = [
  {
    name: "Brand Health Tracker 2026",
    client: 0,
    loi: 15,
    ir: 45,
    children: [
      {
        name: "Brand Health US",
        country: "US",
        loi: 15,
        ir: 45,
        cpi: 3.5,
        sampleSize: 500,
        from: 88,
        to: 0,
        perDay: 14,
        status: PROJECT_STATUS.LIVE,
        suppliers: [0, 3],
        security: { isUniqueIp: true, maxIPCount: 2, isSpeeder: true, speedTime: 180 },
        // answers fill the Gender and Age quotas (matched by option text)
        questions: [
          { title: { en: "What is your gender?" }, options: ["Male", "Female", "Non-binary"] },
          {
            title: { en: "What is your age?" },
            options: ["Under 18", "18-24", "25-34", "35-44", "45-54", "55-64", "65+"],
            bad: ["Under 18"],
          },
        ],
        quotas: [
          { qualification: "Gender", sizes: { Male: 240, Female: 240, "Non-binary": 20 } },
          {
            qualification: "Age",
            sizes: { "18-24": 80, "25-34": 120, "35-44": 120, "45-54": 100, "55-64": 60, "65+": 20 },
          },
        ],
        completeRate: 0.4,
      },
      {
        name: "Brand Health Canada",
        country: "CA",
        loi: 15,
        ir: 40,
        cpi: 3.8,
        sampleSize: 200,
        from: 80,
        to: 0,
        perDay: 6,
        status: PROJECT_STATUS.LIVE,
        suppliers: [2],
        security: { isGeoLocation: true },
        completeRate: 0.38,
      },
    ],
  },
  {
    name: "Streaming Habits Study",
    client: 2,
    loi: 12,
    ir: 60,
    po: "PO-ALB-4471",
    children: [
      {
        name: "Streaming Habits UK",
        country: "GB",
        loi: 12,
        ir: 60,
        cpi: 2.9,
        sampleSize: 150,
        from: 85,
        to: 48,
        perDay: 12,
        status: PROJECT_STATUS.CLOSED,
        suppliers: [1, 5],
        security: { isGeoLocation: true, isProxyVpn: true },
        completeRate: 0.45,
      },
    ],
  },
  {
    name: "EV Purchase Intent",
    client: 3,
    loi: 20,
    ir: 25,
    po: "PO-RW-2026-118",
    children: [
      {
        name: "EV Intent Germany",
        country: "DE",
        language: "de",
        loi: 20,
        ir: 25,
        cpi: 6.5,
        sampleSize: 80,
        from: 70,
        to: 30,
        perDay: 9,
        status: PROJECT_STATUS.INVOICED,
        suppliers: [3, 5],
        questions: [
          {
            title: { en: "How old are you?", de: "Wie alt sind Sie?" },
            options: ["Under 18", "18-34", "35-54", "55 or older"],
            bad: ["Under 18"],
          },
          {
            title: { en: "Do you hold a driving licence?", de: "Haben Sie einen Führerschein?" },
            options: ["Yes", "No"],
            bad: ["No"],
          },
        ],
        completeRate: 0.3,
      },
    ],
  },
  {
    name: "Snack Concept Test",
    client: 1,
    loi: 10,
    ir: 55,
    children: [
      {
        name: "Snack Concept Canada",
        country: "CA",
        loi: 10,
        ir: 55,
        cpi: 2.4,
        sampleSize: 60,
        from: 40,
        to: 12,
        perDay: 10,
        status: PROJECT_STATUS.PAUSED,
        suppliers: [2, 0],
        security: { isMobile: false },
        completeRate: 0.5,
      },
    ],
  },
  {
    name: "Mobile Banking Experience",
    client: 7,
    loi: 18,
    ir: 35,
    children: [
      {
        name: "Mobile Banking India",
        country: "IN",
        loi: 18,
        ir: 35,
        cpi: 1.6,
        sampleSize: 250,
        from: 30,
        to: 0,
        perDay: 16,
        status: PROJECT_STATUS.LIVE,
        suppliers: [4, 6],
        security: { isTablet: false, isUniqueIp: true, maxIPCount: 1 },
        completeRate: 0.42,
      },
      {
        name: "Mobile Banking Singapore",
        country: "SG",
        loi: 18,
        ir: 30,
        cpi: 4.2,
        sampleSize: 50,
        from: 25,
        to: 0,
        perDay: 4,
        status: PROJECT_STATUS.LIVE,
        suppliers: [6],
        // the client sent a list of unique survey links
        multiLinks: 150,
        completeRate: 0.35,
      },
    ],
  },
  {
    name: "Grocery Delivery Habits",
    client: 4,
    loi: 10,
    ir: 65,
    po: "PO-GDH-2026-07",
    children: [
      {
        name: "Grocery Delivery France",
        country: "FR",
        language: "fr",
        loi: 10,
        ir: 65,
        cpi: 2.2,
        sampleSize: 90,
        from: 62,
        to: 36,
        perDay: 8,
        // reconciled, then Proceed to Invoice: waits in Accounts' Ready To Invoice tab
        status: PROJECT_STATUS.READY_TO_INVOICE,
        suppliers: [5, 3],
        completeRate: 0.5,
      },
    ],
  },
  {
    name: "Summer Beverage Tracker",
    client: 6,
    loi: 8,
    ir: 70,
    po: "PO-SBT-0412",
    children: [
      {
        name: "Summer Beverage Australia",
        country: "AU",
        loi: 8,
        ir: 70,
        cpi: 1.9,
        sampleSize: 70,
        from: 89,
        to: 66,
        perDay: 7,
        // reconciled, then Archieve on the reconcile screen: Accounts' Archieved tab
        status: PROJECT_STATUS.ARCHIEVED,
        suppliers: [7, 0],
        completeRate: 0.5,
      },
    ],
  },
  {
    name: "Travel Intentions Winter",
    client: 6,
    loi: 14,
    ir: 50,
    children: [
      {
        name: "Travel Intentions Australia",
        country: "AU",
        loi: 14,
        ir: 50,
        cpi: 4.8,
        sampleSize: 100,
        from: 0,
        to: 0,
        perDay: 0,
        status: PROJECT_STATUS.TESTING,
        suppliers: [7],
        completeRate: 0.4,
      },
    ],
  },
];

const iso = (ms: number) => new Date(ms).toISOString();
const isoDay = (ms: number) => iso(ms).slice(0, 10);

export async function seedTraffic(
  deps: Deps,
  ctx: {
    clientIds: string[];
    supplierIds: string[];
    managerId: string;
    /** Demo qualifications by name, for the quotas. */
    qualifications: Map<string, { _id: string; qualificationOptions: { _id: string; text: string }[] }>;
    now?: number;
  },
): Promise<{ projects: number; childProjects: number; supplierMaps: number; sessions: number }> {
  const { db } = deps;
  const now = ctx.now ?? deps.now();
  // the domain's clock for what the seed makes: `now`, moving on as the seeding takes time
  const startedAt = deps.now();
  const clock = () => now + (deps.now() - startedAt);
  const rand = prng(20261121);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const caller: Caller = { actor: SYSTEM_ACTOR, userId: ctx.managerId, role: "SUPERADMIN" };
  const entryBase = (deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`).replace(/\/$/, "");
  // its own router, with settings cached for the run (changes made here invalidate them)
  const { outbound, changes, routerOptions } = deps.services;
  const router = new Router({ ...deps, outbound, changes }, {
    ...routerOptions,
    configTtlMs: 10 * 60_000,
    fetch: (() => Promise.reject(new Error("no approved hooks while seeding"))) as typeof fetch,
  });
  const counts = { projects: 0, childProjects: 0, supplierMaps: 0, sessions: 0 };

  const suppliers = await db.selectFrom("suppliers").selectAll().where("id", "in", ctx.supplierIds).execute();
  const supplierById = new Map(suppliers.map((s) => [s.id, s]));

  type Child = {
    id: string;
    plan: ChildPlan;
    maps: string[];
    secret: string;
    questions: { id: string; ok: string[]; bad: string[] }[];
  };
  const children: { parentId: string; po?: string; child: Child }[] = [];

  for (const p of PLANS) {
    const start = now - Math.max(...p.children.map((c) => c.from), 1) * DAY;
    const parent = await createGroupProject(
      db,
      caller,
      v.parse(GroupProject, {
        projectName: p.name,
        clientId: ctx.clientIds[p.client],
        userId: ctx.managerId,
        averageLOI: p.loi,
        ir: p.ir,
        projectDescription: `${p.name}: online quantitative study`,
        clientEmail: "fieldwork@example.com",
      }),
      clock,
    );
    counts.projects++;
    for (const c of p.children) {
      const child = await createChildProject(
        db,
        caller,
        v.parse(ChildProject, {
          projectName: c.name,
          parentProjectId: parent._id,
          clientId: ctx.clientIds[p.client],
          countryId: c.country,
          languageId: c.language ?? "en",
          averageLOI: c.loi,
          ir: c.ir,
          sampleSize: c.sampleSize,
          respondentClickQuota: 0,
          cpi: c.cpi,
          startDate: isoDay(now - c.from * DAY),
          endDate: isoDay(now + 30 * DAY),
        }),
        clock,
      );
      counts.childProjects++;
      const code = (child.projectCode as string).toLowerCase();
      const prescreen = !!c.questions?.length;
      await updateProject(
        deps,
        caller,
        child._id,
        v.parse(ProjectPatch, {
          singleLinkUrl: `https://surveys.client.example/${code}?rid=[uid]`,
          singleLinkUrlTest: `https://surveys.client.example/${code}/test?rid=[uid]`,
          ...(c.multiLinks
            ? {
              isMultiLinkUrl: true,
              multiLinkUrls: Array.from(
                { length: c.multiLinks },
                (_, i) =>
                  `https://surveys.client.example/${code}/l${String(i + 1).padStart(3, "0")}?rid=[uid]`,
              ),
            }
            : {}),
          isPreScreen: prescreen,
          ...c.security,
          projectStatus: c.status === PROJECT_STATUS.TESTING ? PROJECT_STATUS.TESTING : PROJECT_STATUS.LIVE,
        }),
        clock,
      );
      for (const quota of c.quotas ?? []) {
        const qual = ctx.qualifications.get(quota.qualification)!;
        const chosen = qual.qualificationOptions.filter((o) => o.text in quota.sizes);
        const [{ _id: quotaId }] = (await addQuota(deps, SYSTEM_ACTOR, child._id, qual._id, clock))
          .filter((q) => q.quotaId._id === qual._id);
        await updateQuota(
          deps,
          SYSTEM_ACTOR,
          quotaId,
          child._id,
          { quotaOptionId: chosen.map((o) => o._id) },
          clock,
        );
        await updateQuotaSizes(
          deps,
          SYSTEM_ACTOR,
          quotaId,
          child._id,
          chosen.map((o) => ({ quotaOptionId: o._id, quotaSize: quota.sizes[o.text] })),
          clock,
        );
      }
      const maps: string[] = [];
      for (const si of c.suppliers) {
        const s = supplierById.get(ctx.supplierIds[si])!;
        const rules = s.supplierRuleCPI.split("|").map(Number).filter((n) => n > 0);
        const { id } = await saveSupplierMap(
          deps,
          SYSTEM_ACTOR,
          v.parse(SupplierMapForm, {
            projectId: child._id,
            supplierId: s.id,
            supplierCPI: Math.min(c.cpi * 0.6, rules[0] ?? c.cpi * 0.6).toFixed(2),
            supplierQuota: Math.ceil(c.sampleSize / c.suppliers.length) + 10,
            isPreScreen: prescreen,
            isTestLink: true,
            redirectComplete: s.redirectComplete,
            redirectTerminate: s.redirectTerminate,
            redirectQuotaFull: s.redirectQuotaFull,
            redirectQualityTerm: s.redirectQualityTerm,
            redirectSurveyClose: s.redirectSurveyClose,
          }),
          entryBase,
          clock,
        );
        maps.push(id);
        counts.supplierMaps++;
      }
      const questions: Child["questions"] = [];
      for (const q of c.questions ?? []) {
        const bad = q.bad ?? [];
        const made = await createQuestion(
          deps,
          SYSTEM_ACTOR,
          { kind: "project", projectId: child._id },
          v.parse(QuestionForm, {
            languageId: c.language ?? "en",
            questionTitle: q.title,
            questionType: "RADIO",
            questionOption: q.options.map((o) => ({ title: o, formvalidate: !bad.includes(o) })),
          }),
        );
        questions.push({
          id: made._id,
          ok: made.questionOption.filter((o) => !bad.includes(o.title)).map((o) => o._id),
          bad: made.questionOption.filter((o) => bad.includes(o.title)).map((o) => o._id),
        });
      }
      children.push({
        parentId: parent._id,
        po: p.po,
        child: { id: child._id, plan: c, maps, secret: await projectSecret(db, child._id), questions },
      });
      // the project was set up when its field work began
      await db.updateTable("projects").set({ createdAt: iso(start), statusChangedAt: iso(start) })
        .where("id", "in", [parent._id, child._id]).execute();
    }
  }

  // -------------------------------------------------------------- the traffic, day by day
  const firstDay = Math.max(...children.map((c) => c.child.plan.from));
  const sids = new Map<string, string[]>();
  for (let daysAgo = firstDay; daysAgo >= 0; daysAgo--) {
    const dayStart = now - daysAgo * DAY - (now % DAY);
    type Arrival = {
      c: Child;
      t: number;
      sid: string;
      mapId: string;
      ua: string;
      ip: string;
      country: string;
    };
    const arrivals: Arrival[] = [];
    for (const { child: c } of children) {
      const plan = c.plan;
      if (!plan.perDay || daysAgo > plan.from || daysAgo < plan.to) continue;
      const n = Math.max(0, Math.round(plan.perDay * (0.6 + rand() * 0.8)));
      for (let i = 0; i < n; i++) {
        const t = dayStart + Math.floor((6 + rand() * 17) * 3_600_000);
        if (t > now - 3_600_000) continue;
        const mapId = pick(c.maps);
        const used = sids.get(c.id) ?? [];
        sids.set(c.id, used);
        // now and then a panel sends the same respondent again
        const sid = used.length && rand() < 0.02 ? pick(used) : `R${Math.floor(rand() * 1e9).toString(36)}`;
        used.push(sid);
        const r = rand();
        const ua = r < 0.5
          ? AGENTS.desktop
          : r < 0.62
          ? AGENTS.mac
          : r < 0.8
          ? AGENTS.mobile
          : r < 0.93
          ? AGENTS.android
          : AGENTS.tablet;
        // a few respondents share an address; a few connect from abroad
        const ip = rand() < 0.03
          ? "203.0.113.7"
          : `${pick([24, 49, 73, 81, 98, 109, 122, 151, 186])}.${Math.floor(rand() * 250)}.${
            Math.floor(rand() * 250)
          }.${1 + Math.floor(rand() * 250)}`;
        const country = rand() < 0.04 ? pick(["NG", "VN", "RU", "BR"]) : plan.country;
        arrivals.push({ c, t, sid, mapId, ua, ip, country });
      }
    }
    arrivals.sort((a, b) => a.t - b.t);
    const routed = await Promise.all(arrivals.map((a) =>
      router.enter({
        mapId: a.mapId,
        sid: a.sid,
        isTest: false,
        ip: a.ip,
        userAgent: a.ua,
        headers: new Headers(),
        country: a.country,
        now: a.t,
      }).then((r) => ({ a, r }))
    ));
    counts.sessions += arrivals.length;

    // pre-screen answers a minute or two later (some never answer: pre-screen drops)
    const answered = await Promise.all(routed.map(async ({ a, r }) => {
      if (r.kind !== "routed" || r.session.status !== "prescreen") return { a, r };
      if (rand() < 0.06) return { a, r: null };
      // some fail the question that can disqualify
      const failing = rand() < 0.12 ? a.c.questions.find((q) => q.bad.length) : undefined;
      const values = new Map(
        a.c.questions.map((q) => [`q_${q.id}`, [q === failing ? pick(q.bad) : pick(q.ok)]]),
      );
      const out = await router.answer(r.session.id, (name) => values.get(name) ?? [], a.t + 90_000);
      return { a, r: out.kind === "done" ? { ...r, session: out.session } : r };
    }));

    // returns from the client's survey
    await Promise.all(answered.map(async ({ a, r }) => {
      if (!r || r.kind !== "routed" || r.session.status !== "redirected") return;
      const plan = a.c.plan;
      const x = rand();
      if (x < 0.1) return; // never comes back: a drop after the time-out
      const status = x < 0.1 + plan.completeRate * 0.9
        ? "complete"
        : x < 0.9
        ? "terminate"
        : x < 0.95
        ? "overQuota"
        : "qualityTerm";
      const minutes = status === "complete"
        ? (rand() < 0.04 ? 1 + rand() : plan.loi * (0.6 + rand() * 0.9))
        : 1 + rand() * plan.loi * 0.4;
      const letter = STATUS_LETTER[status];
      await router.finish({
        uid: r.session.id,
        status: letter,
        sig: returnSignature(a.c.secret, r.session.id, letter),
        via: rand() < 0.2 ? "postback" : "redirect",
        now: r.session.redirectedAt ? Date.parse(r.session.redirectedAt) + Math.round(minutes * 60_000) : a.t,
      });
    }));
    await router.sweep(Math.min(now, dayStart + DAY));
  }

  // a tester's clicks on the project still in Testing
  const testing = children.find((c) => c.child.plan.status === PROJECT_STATUS.TESTING);
  if (testing) {
    for (let i = 0; i < 3; i++) {
      await router.enter({
        mapId: testing.child.maps[0],
        sid: `TEST${i + 1}`,
        isTest: true,
        ip: "198.51.100.20",
        userAgent: AGENTS.desktop,
        headers: new Headers(),
        country: testing.child.plan.country,
        now: now - (3 - i) * 3_600_000,
      });
      counts.sessions++;
    }
  }

  await router.sweep(now);

  // field work over: the status each project has today
  const { ARCHIEVED, CLOSED, INVOICED, LIVE, PAUSED, READY_TO_INVOICE, TESTING } = PROJECT_STATUS;
  const patch = (p: Record<string, unknown>) => v.parse(ProjectPatch, p);
  for (const { parentId, po, child } of children) {
    const to = child.plan.status;
    if (to === LIVE || to === TESTING) continue;
    if (to === PAUSED) await updateProject(deps, caller, child.id, patch({ projectStatus: PAUSED }), clock);
    if (to === CLOSED || to === READY_TO_INVOICE || to === INVOICED || to === ARCHIEVED) {
      // closed with the client's PO, then on to invoicing (Closed -> Ready To Invoice -> Invoiced)
      const close = patch({ projectStatus: CLOSED, poNumber: po ?? "PO-DEMO" });
      await updateProject(deps, caller, child.id, close, clock);
      await updateProject(deps, caller, parentId, close, clock);
      // the client's approved and rejected files, through the reconcile domain
      await seedReconcile(deps, parentId, child.id, rand, clock());
      if (to === READY_TO_INVOICE || to === INVOICED) {
        await setStatus(deps, caller, child.id, "proceedToInvoice", clock);
      }
      // Invoiced is an invoice's doing, not an edit's
      if (to === INVOICED) await setStatus(deps, caller, child.id, "invoice", clock);
      // Archieve from the reconcile screen, on the group (its child follows), no supplier e-mails
      if (to === ARCHIEVED) await reconcileStatus(deps, caller.actor, parentId, ARCHIEVED, false, clock);
    }
  }
  // a group project that is not finished reads as its busiest child: Live, else Testing, else Paused
  const byParent = new Map<string, number[]>();
  for (const { parentId, child } of children) {
    byParent.set(parentId, [...(byParent.get(parentId) ?? []), child.plan.status]);
  }
  for (const [parentId, statuses] of byParent) {
    const to = [LIVE, TESTING, PAUSED].find((s) => statuses.includes(s));
    if (to && !statuses.some(isFinishedStatus)) {
      await updateProject(deps, caller, parentId, patch({ projectStatus: to }), clock);
    }
  }
  // the accounts tabs: invoices, an archived project, a purchase order
  await seedAccounts(
    deps,
    caller,
    clock,
    children.map((c) => ({ parentId: c.parentId, status: c.child.plan.status })),
  );
  await router.close();
  return counts;
}
