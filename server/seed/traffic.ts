/**
 * Demo projects and 90 days of respondent traffic. The projects of the plans (plans.ts) are made by
 * the projects domain (projects.ts); every click, pre-screen answer, return and drop goes through
 * the real router functions with an injected clock (respondents.ts); then each project is moved to
 * the status it has today (statuses.ts) and the accounts tabs are filled (accounts.ts). Random
 * choices come from a seeded generator: the demo is the same on every machine.
 */
import { seededRandom } from "../../shared/random.ts";
import { seedAccounts } from "./accounts.ts";
import type { Deps } from "../deps.ts";
import { SYSTEM_ACTOR } from "../domain/audit/log.ts";
import type { Caller } from "../domain/projects/projects.ts";
import { Router } from "../domain/router/router.ts";
import { type DemoRefs, seedProjects } from "./projects.ts";
import { sendTraffic, testerClicks } from "./respondents.ts";
import { settleStatuses } from "./statuses.ts";

export async function seedTraffic(
  deps: Deps,
  refs: DemoRefs & { now?: number },
): Promise<{ projects: number; childProjects: number; supplierMaps: number; sessions: number }> {
  const now = refs.now ?? deps.now();
  // the domain's clock for what the seed makes: `now`, moving on as the seeding takes time
  const startedAt = deps.now();
  const clock = () => now + (deps.now() - startedAt);
  const rand = seededRandom(20261121);
  const caller: Caller = { actor: SYSTEM_ACTOR, userId: refs.managerId, role: "SUPERADMIN" };
  // its own router, with settings cached for the run (changes made here invalidate them)
  const { outbound, changes, routerOptions } = deps.services;
  const router = new Router({ ...deps, outbound, changes }, {
    ...routerOptions,
    configTtlMs: 10 * 60_000,
    fetch: (() => Promise.reject(new Error("no approved hooks while seeding"))) as typeof fetch,
    // the demo clients' platforms are fictional: their projects' own links stand in for them
    clientApi: false,
  });

  const { children, ...made } = await seedProjects(deps, refs, caller, now, clock);
  let sessions = await sendTraffic(router, children, now, rand);
  sessions += await testerClicks(router, children, now);
  await router.sweep(now);

  await settleStatuses(deps, caller, children, rand, clock);
  // the accounts tabs: invoices, an archived project, a purchase order
  await seedAccounts(
    deps,
    caller,
    clock,
    children.map((c) => ({ parentId: c.parentId, status: c.child.plan.status })),
  );
  await router.close();
  return { ...made, sessions };
}
