/** Reconcile fixtures: a project with traffic, closed and ready to reconcile. */
import { assertEquals } from "./assert.ts";
import type { TestApp } from "./app.ts";
import { back, enter, liveProject, router, uidOf } from "./router.ts";
import { updateProjectCall } from "../../shared/api/projects.ts";

export type Traffic = Awaited<ReturnType<typeof liveProject>> & { completes: string[]; terminates: string[] };

/** A live project with `complete` completes and `terminate` terminates, then Closed (PO set). */
export async function closedProject(
  t: TestApp,
  n: { complete: number; terminate?: number },
  opts: Parameters<typeof liveProject>[1] = {},
): Promise<Traffic> {
  const s = await liveProject(t, opts);
  const completes: string[] = [], terminates: string[] = [];
  for (let i = 0; i < n.complete + (n.terminate ?? 0); i++) {
    const uid = uidOf((await enter(t, s.mapId, `r${i}-${s.mapId.slice(-6)}`)).location);
    const isComplete = i < n.complete;
    await back(t, uid, isComplete ? "c" : "t");
    (isComplete ? completes : terminates).push(uid);
  }
  await router(t).idle();
  await closeForReconcile(t, s);
  return { ...s, completes, terminates };
}

/** Closes a project's child and group (PO set), as they must be to be reconciled. */
export async function closeForReconcile(t: TestApp, s: { child: { _id: string }; parent: { _id: string } }) {
  for (const id of [s.child._id, s.parent._id]) {
    const r = await t.api(updateProjectCall, {
      params: { id },
      as: "SUPERADMIN",
      body: { projectStatus: 6, poNumber: "PO-1" },
    });
    assertEquals(r.status, 200, r.text);
  }
}
