/**
 * The demo's respondent traffic, day by day: arrivals from the plans' suppliers (devices, addresses
 * and countries drawn from the seeded generator), pre-screen answers, returns from the client's
 * survey and drops, each through the real router functions at its own time, so counters, daily
 * rollups and sessions agree exactly as they would in production.
 */
import type { Router } from "../domain/router/router.ts";
import { returnSignature } from "../domain/router/links.ts";
import { STATUS_LETTER } from "../domain/router/outcomes.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { DAY } from "./plans.ts";
import type { Child, SeededChild } from "./projects.ts";

export const AGENTS = {
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

/** Sends every planned day's respondents through the router; returns how many sessions it made. */
export async function sendTraffic(
  router: Router,
  children: SeededChild[],
  now: number,
  rand: () => number,
): Promise<number> {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  let sessions = 0;
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
    sessions += arrivals.length;

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
  return sessions;
}

/** A tester's clicks on the project still in Testing; returns how many sessions they made. */
export async function testerClicks(router: Router, children: SeededChild[], now: number): Promise<number> {
  let sessions = 0;
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
      sessions++;
    }
  }
  return sessions;
}
