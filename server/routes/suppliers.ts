/** Suppliers (part 1, 7 "Suppliers and supplier maps": the supplier calls): handlers of shared/api/suppliers.ts. */
import { answer, type Api } from "../http/api.ts";
import * as S from "../../shared/api/suppliers.ts";
import {
  createSupplier,
  enrichSuppliers,
  getSupplier,
  supplierKeys,
  supplierListMap,
  supplierOptions,
  suppliersListQuery,
  suppliersListSpec,
  updateSupplier,
} from "../domain/suppliers/suppliers.ts";
import { updateMessage } from "../domain/common/records.ts";

export function supplierRoutes(api: Api) {
  api.list(S.listSuppliers, ({ db }) => ({
    query: suppliersListQuery(db),
    spec: suppliersListSpec,
    map: supplierListMap,
    enrich: (rows) => enrichSuppliers(db, rows),
    list: S.suppliersList,
  }));

  api.handle(S.supplierOptionsCall, ({ db, query }) => supplierOptions(db, query.search));

  // literal paths first: POST /admin/supplier/:id would otherwise also match /admin/supplier/add
  api.handle(
    S.addSupplier,
    async ({ deps, db, actor, body }) =>
      answer(await createSupplier(db, actor(), body, deps.now), "Supplier added successfully"),
  );
  api.handle(S.updateSupplierCall, async ({ deps, actor, params, body }) => {
    const { record, outcome } = await updateSupplier(deps, actor(), params.id, body, deps.now);
    return answer(record, updateMessage("Supplier", outcome));
  });
  api.handle(S.getSupplierCall, ({ db, params }) => getSupplier(db, params.id));
  api.handle(
    S.revealSupplierKeysCall,
    ({ deps, db, actor, params }) => supplierKeys(db, actor(), params.id, deps.now),
  );
}
