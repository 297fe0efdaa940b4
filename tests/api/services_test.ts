/**
 * Long-lived services are per app (deps.services, server/services.ts): two apps in one process, on
 * two databases, share nothing. A change made through one app is heard by its own notifier (and so
 * its own router cache) and never by the other's; closing an app leaves no listener behind.
 *
 * Before #22 the change listeners were module-level sets: a listener of one app heard every app's
 * changes (this test then fails at "A hears nothing of B").
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { enter, liveProject, router } from "../helpers/router.ts";
import { updateProjectCall } from "../../shared/api/projects.ts";
import { updateSupplierCall } from "../../shared/api/suppliers.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import type { ChangeTopic } from "../../server/domain/common/changes.ts";

const TOPICS: ChangeTopic[] = ["project", "supplierMap", "supplier"];

/** Every id each topic of the app's notifier tells, from now on (until the test's end). */
function listen(t: TestApp, stops: (() => void)[]) {
  const heard: Record<ChangeTopic, string[]> = { project: [], supplierMap: [], supplier: [] };
  for (const topic of TOPICS) stops.push(t.deps.services.changes.on(topic, (id) => heard[topic].push(id)));
  return heard;
}

Deno.test("services: two apps in one process share nothing; a change in one never reaches the other's services", async () => {
  const cached = { router: { configTtlMs: 10 * 60_000 } };
  const a = await testApp({}, cached);
  const b = await testApp({}, cached);
  const stops: (() => void)[] = [];
  try {
    // every long-lived service is the app's own
    for (const k of Object.keys(a.deps.services) as (keyof typeof a.deps.services)[]) {
      if (k === "close" || k === "routerOptions") continue;
      assert(a.deps.services[k] !== b.deps.services[k], `${k} is shared`);
    }
    const pa = await liveProject(a);
    const pb = await liveProject(b);
    // each app's router caches its own map (a long TTL: only a change told to it drops the entry)
    assert((await enter(a, pa.mapId, "a1")).location.startsWith("https://client.example"));
    assert((await enter(b, pb.mapId, "b1")).location.startsWith("https://client.example"));

    const heardA = listen(a, stops), heardB = listen(b, stops);
    const paused = await b.api(updateProjectCall, {
      params: { id: pb.child._id },
      body: { projectStatus: PROJECT_STATUS.PAUSED },
      as: "SUPERADMIN",
    });
    assertEquals(paused.status, 200);
    const off = await b.api(updateSupplierCall, {
      params: { id: pb.supplierId },
      body: { isActive: false },
      as: "SUPERADMIN",
    });
    assertEquals(off.status, 200);

    assertEquals(heardA, { project: [], supplierMap: [], supplier: [] }, "A hears nothing of B");
    assert(heardB.project.includes(pb.child._id), "B's router is told its project changed");
    assertEquals(heardB.supplier, [pb.supplierId]);
    // B's cache dropped its entries at once (a pause turns the next respondent away); A's did not
    assert(!(await enter(b, pb.mapId, "b2")).location.startsWith("https://client.example"), "B rereads");
    assert((await enter(a, pa.mapId, "a2")).location.startsWith("https://client.example"), "A untouched");
    assertEquals(router(a).writer !== router(b).writer, true);
  } finally {
    stops.forEach((stop) => stop());
    await a.close();
    await b.close();
  }
  // closed: the routers' caches stopped listening (nothing of an app outlives it)
  assertEquals([a.deps.services.changes.listeners, b.deps.services.changes.listeners], [0, 0]);
});
