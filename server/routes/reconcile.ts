/** Reconcile (part 2, "Reconcile"): handlers of the contracts in shared/api/reconcile.ts. */
import { answer, type Api } from "../http/api.ts";
import * as R from "../../shared/api/reconcile.ts";
import { reconcileTypeLabel } from "../../shared/schemas/reconcile.ts";
import { identifiersOfUpload, reconcileUpload, undoReconcile } from "../domain/reconcile/reconcile.ts";
import {
  enrichReconcileRows,
  reconcileListMap,
  reconcileListQuery,
  reconcileListSpec,
} from "../domain/reconcile/list.ts";
import { supplierSummary, updateSupplierSummary } from "../domain/reconcile/summary.ts";
import { reconcileStatus, revokeProject } from "../domain/reconcile/status.ts";
import { projectStatusLabel } from "../../shared/status.ts";
import { csvResponse, csvStream } from "../http/csv.ts";
import { unknownColumns, unknownPages, unknownSource } from "../domain/reconcile/unknown.ts";

export function reconcileRoutes(api: Api) {
  api.list(R.listReconcileProjects, ({ db }) => ({
    query: reconcileListQuery(db),
    spec: reconcileListSpec,
    map: reconcileListMap,
    enrich: (rows) => enrichReconcileRows(db, rows),
    list: R.reconcileList,
  }));

  api.handle(R.reconcileUpload, async ({ ctx, params, body }) => {
    const summary = await reconcileUpload(ctx, {
      projectId: params.id,
      type: body.type,
      ids: await identifiersOfUpload(body),
    });
    return answer(
      summary,
      `${summary.matched} identifiers ${
        reconcileTypeLabel(summary.type).toLowerCase()
      } on ${summary.projectCode}`,
    );
  });

  // every identifier an upload did not match, streamed page by page
  api.handle(R.reconcileUnknownCall, async ({ ctx, params, c }) => {
    const u = await unknownSource(ctx, params.id);
    return csvResponse(
      c,
      `${u.projectCode}-unknown-identifiers.csv`,
      csvStream(unknownColumns, unknownPages(ctx, u.id)),
    );
  });

  api.handle(R.reconcileUndo, async ({ ctx, params }) => {
    const out = await undoReconcile(ctx, params.id);
    return answer(out, `Reconcile undone: ${out.restored} sessions restored`);
  });

  api.handle(R.reconcileStatusCall, async ({ ctx, params, body }) => {
    const out = await reconcileStatus(ctx, { ...body, id: params.id });
    return answer(out, `${out.projectCode} is now ${projectStatusLabel(out.projectStatus)}`);
  });

  api.handle(R.revokeProjectCall, async ({ ctx, params, body }) => {
    const out = await revokeProject(ctx, { ...body, id: params.id });
    return answer(out, `${out.projectCode} revoked: back to Closed`);
  });

  api.handle(R.supplierSummaryCall, ({ ctx, body }) => supplierSummary(ctx, body.projectId));
  api.handle(
    R.approveSummaryCall,
    async ({ ctx, body }) => answer(await updateSupplierSummary(ctx, body), "Supplier summary updated"),
  );
}
