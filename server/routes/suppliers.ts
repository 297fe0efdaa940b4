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
import { eraseMemberProfile, profileSettings, updateProfileSettings } from "../domain/suppliers/profiles.ts";

export function supplierRoutes(api: Api) {
  api.list(S.listSuppliers, ({ db }) => ({
    query: suppliersListQuery(db),
    spec: suppliersListSpec,
    map: supplierListMap,
    enrich: (rows) => enrichSuppliers(db, rows),
    list: S.suppliersList,
  }));

  api.handle(S.supplierOptionsCall, ({ db, query }) => supplierOptions(db, query.search));

  // respondent profiles (issue 24): the expiry setting and erasing a member
  api.handle(S.profileSettingsCall, ({ db }) => profileSettings(db));
  api.handle(
    S.updateProfileSettingsCall,
    async ({ ctx, body }) => answer(await updateProfileSettings(ctx, body), "Profile settings saved"),
  );
  api.handle(S.eraseMemberProfileCall, async ({ ctx, params, body }) => {
    const out = await eraseMemberProfile(ctx, { supplierId: params.id, memberId: body.memberId });
    return answer(out, `Erased ${out.erased} known answer(s) of member ${body.memberId}`);
  });

  // literal paths first: POST /admin/supplier/:id would otherwise also match /admin/supplier/add
  api.handle(
    S.addSupplier,
    async ({ ctx, body }) => answer(await createSupplier(ctx, body), "Supplier added successfully"),
  );
  api.handle(S.updateSupplierCall, async ({ ctx, params, body }) => {
    const { record, outcome } = await updateSupplier(ctx, { ...body, id: params.id });
    return answer(record, updateMessage("Supplier", outcome));
  });
  api.handle(S.getSupplierCall, ({ db, params }) => getSupplier(db, params.id));
  api.handle(
    S.revealSupplierKeysCall,
    ({ ctx, params }) => supplierKeys(ctx, params.id),
  );
}
