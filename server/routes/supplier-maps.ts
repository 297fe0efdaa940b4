/** Supplier maps (part 1, 7 "Suppliers and supplier maps"): handlers of shared/api/supplier-maps.ts. */
import { answer, type Api } from "../http/api.ts";
import type { Ctx } from "../http/context.ts";
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
export const entryBaseOf = (c: Ctx) =>
  (c.get("deps").env.PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/$/, "");

export function supplierMapRoutes(api: Api) {
  api.handle(
    S.listSupplierMapsCall,
    ({ db, body, c }) => listSupplierMaps(db, body.projectId, body.search, entryBaseOf(c)),
  );

  api.handle(S.saveSupplierMapCall, async ({ deps, body, actor, c }) => {
    const { record, created } = await saveSupplierMap(deps, actor(), body, entryBaseOf(c), deps.now);
    return answer(record, created ? "Supplier mapped successfully" : "Supplier map updated successfully");
  });

  api.handle(S.updateSupplierMapCall, async ({ deps, params, body, actor, c }) => {
    const record = await updateSupplierMap(deps, actor(), params.id, body, entryBaseOf(c), deps.now);
    return answer(
      record,
      "isDeleted" in body ? "Supplier removed from the project" : "Supplier map updated successfully",
    );
  });

  api.handle(S.getSupplierMapCall, ({ db, params, c }) => getSupplierMap(db, params.id, entryBaseOf(c)));

  api.handle(S.supplierMapDefaultsCall, ({ db, query }) => supplierMapDefaults(db, query.supplierId));

  api.handle(S.supplierStatsCall, ({ db, params }) => supplierStats(db, params.projectId));
}
