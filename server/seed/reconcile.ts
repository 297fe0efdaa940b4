/**
 * The demo's reconciles: each project that closed is reconciled through the same domain function as
 * the API and the CLI, from the client's two files (about nine in ten completes approved, the rest
 * rejected), before it goes on to invoicing; so the reconcile list, the approved counts and the
 * supplier summaries have figures on a fresh start. The files name a child's completes and are
 * uploaded to its group project, as from the reconcile screen (which lists group projects): the
 * list's Last upload shows them and its Undo takes them back.
 */
import type { Deps } from "../deps.ts";
import { SYSTEM_ACTOR } from "../domain/audit/log.ts";
import { reconcileUpload } from "../domain/reconcile/reconcile.ts";
import { RECONCILE_TYPE } from "../../shared/schemas/reconcile.ts";

export async function seedReconcile(
  deps: Deps,
  groupId: string,
  childId: string,
  rand: () => number,
  now: number,
) {
  const completes = await deps.db.selectFrom("sessions").select("id").where("projectId", "=", childId)
    .where("status", "=", "complete").where("isTest", "=", 0).orderBy("id").execute();
  if (!completes.length) return;
  const approved: string[] = [], rejected: string[] = [];
  for (const c of completes) (rand() < 0.9 ? approved : rejected).push(c.id);
  const upload = (type: 1 | 2, ids: string[], fileName: string, at: number) =>
    reconcileUpload({ ...deps, actor: SYSTEM_ACTOR }, {
      projectId: groupId,
      type,
      ids: { identifiers: ids, lines: ids.length, duplicates: 0, fileName },
      at,
    });
  if (approved.length) await upload(RECONCILE_TYPE.APPROVED, approved, "approved.csv", now);
  if (rejected.length) await upload(RECONCILE_TYPE.REJECTED, rejected, "rejected.csv", now + 60_000);
}
