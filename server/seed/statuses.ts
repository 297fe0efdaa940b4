/**
 * The demo projects' statuses once their field work is over: paused, or closed with the client's PO
 * and reconciled (the client's files through the reconcile domain), then on to invoicing or the
 * archive; a group project not finished reads as its busiest child.
 */
import * as v from "valibot";
import type { Deps } from "../deps.ts";
import { ProjectPatch } from "../../shared/schemas/project.ts";
import type { Caller } from "../domain/projects/projects.ts";
import { updateProject } from "../domain/projects/update.ts";
import { setStatus } from "../domain/projects/status.ts";
import { isFinishedStatus, PROJECT_STATUS } from "../../shared/status.ts";
import { reconcileStatus } from "../domain/reconcile/status.ts";
import { seedReconcile } from "./reconcile.ts";
import type { SeededChild } from "./projects.ts";

/** Moves each made project to the status its plan has today. */
export async function settleStatuses(
  deps: Deps,
  caller: Caller,
  children: SeededChild[],
  rand: () => number,
  clock: () => number,
): Promise<void> {
  const manager = { ...deps, now: clock, ...caller };
  const { ARCHIEVED, CLOSED, INVOICED, LIVE, PAUSED, READY_TO_INVOICE, TESTING } = PROJECT_STATUS;
  const patch = (p: Record<string, unknown>) => v.parse(ProjectPatch, p);
  for (const { parentId, po, child } of children) {
    const to = child.plan.status;
    if (to === LIVE || to === TESTING) continue;
    if (to === PAUSED) {
      await updateProject(manager, {
        ...patch({ projectStatus: PAUSED }),
        id: child.id,
      });
    }
    if (to === CLOSED || to === READY_TO_INVOICE || to === INVOICED || to === ARCHIEVED) {
      // closed with the client's PO, then on to invoicing (Closed -> Ready To Invoice -> Invoiced)
      const close = patch({ projectStatus: CLOSED, poNumber: po ?? "PO-DEMO" });
      await updateProject(manager, { ...close, id: child.id });
      await updateProject(manager, { ...close, id: parentId });
      // the client's approved and rejected files, through the reconcile domain
      await seedReconcile(deps, parentId, child.id, rand, clock());
      if (to === READY_TO_INVOICE || to === INVOICED) {
        await setStatus(manager, { id: child.id, action: "proceedToInvoice" });
      }
      // Invoiced is an invoice's doing, not an edit's
      if (to === INVOICED) {
        await setStatus(manager, { id: child.id, action: "invoice" });
      }
      // Archieve from the reconcile screen, on the group (its child follows), no supplier e-mails
      if (to === ARCHIEVED) {
        await reconcileStatus(manager, {
          id: parentId,
          projectStatus: ARCHIEVED,
          sendEmail: false,
        });
      }
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
      await updateProject(manager, {
        ...patch({ projectStatus: to }),
        id: parentId,
      });
    }
  }
}
