/** Supplier maps (part 1, 7 "Suppliers and supplier maps"): handlers of shared/api/supplier-maps.ts. */
import { answer, type Api } from "../http/api.ts";
import type { HttpCtx } from "../http/context.ts";
import * as S from "../../shared/api/supplier-maps.ts";
import {
  getSupplierMap,
  listSupplierMaps,
  saveSupplierMap,
  supplierMapDefaults,
  supplierStats,
  updateSupplierMap,
} from "../domain/projects/supplier-maps.ts";

/** Base of respondent entry links: PUBLIC_URL, else the origin staff are using. */
export const entryBaseOf = (c: HttpCtx) =>
  (c.get("deps").env.PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/$/, "");

export function supplierMapRoutes(api: Api) {
  api.handle(
    S.listSupplierMapsCall,
    ({ db, body, c }) => listSupplierMaps(db, body.projectId, body.search, entryBaseOf(c)),
  );

  api.handle(S.saveSupplierMapCall, async ({ ctx, body, c }) => {
    const { record, created } = await saveSupplierMap(ctx, { ...body, entryBase: entryBaseOf(c) });
    return answer(record, created ? "Supplier mapped successfully" : "Supplier map updated successfully");
  });

  api.handle(S.updateSupplierMapCall, async ({ ctx, params, body, c }) => {
    const record = await updateSupplierMap(ctx, { id: params.id, patch: body, entryBase: entryBaseOf(c) });
    return answer(
      record,
      "isDeleted" in body ? "Supplier removed from the project" : "Supplier map updated successfully",
    );
  });

  api.handle(S.getSupplierMapCall, ({ db, params, c }) => getSupplierMap(db, params.id, entryBaseOf(c)));

  api.handle(S.supplierMapDefaultsCall, ({ db, query }) => supplierMapDefaults(db, query.supplierId));

  api.handle(S.supplierStatsCall, ({ db, params }) => supplierStats(db, params.projectId));
}
