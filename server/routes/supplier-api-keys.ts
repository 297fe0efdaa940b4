/**
 * A supplier's API keys (issue 23): handlers of shared/api/supplier-api-keys.ts. Staff name the
 * supplier in the path; a SUPPLIER user's calls are scoped to the user's own supplier, whatever is sent.
 */
import { answer, type Api } from "../http/api.ts";
import type { HttpCtx } from "../http/context.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import {
  createSupplierApiKey,
  listSupplierApiKeys,
  renameSupplierApiKey,
  revokeSupplierApiKey,
} from "../domain/suppliers/api-keys.ts";

/** The supplier the signed-in SUPPLIER user belongs to. */
export const ownSupplier = (c: HttpCtx) => c.get("user").supplierId ?? "";

const CREATED = "API key created: copy it now, it will not be shown again";

export function supplierApiKeyRoutes(api: Api) {
  api.handle(
    K.listSupplierApiKeysCall,
    ({ ctx, params }) => listSupplierApiKeys(ctx, { supplierId: params.id }),
  );
  api.handle(
    K.createSupplierApiKeyCall,
    async ({ ctx, params, body }) =>
      answer(await createSupplierApiKey(ctx, { ...body, supplierId: params.id }), CREATED),
  );
  api.handle(K.renameSupplierApiKeyCall, async ({ ctx, params, body }) =>
    answer(
      await renameSupplierApiKey(ctx, { ...body, supplierId: params.id, keyId: params.keyId }),
      "API key renamed",
    ));
  api.handle(
    K.revokeSupplierApiKeyCall,
    async ({ ctx, params }) =>
      answer(
        await revokeSupplierApiKey(ctx, { supplierId: params.id, keyId: params.keyId }),
        "API key revoked",
      ),
  );

  api.handle(
    K.listPortalApiKeysCall,
    ({ ctx, c }) => listSupplierApiKeys(ctx, { supplierId: ownSupplier(c) }),
  );
  api.handle(
    K.createPortalApiKeyCall,
    async ({ ctx, body, c }) =>
      answer(await createSupplierApiKey(ctx, { ...body, supplierId: ownSupplier(c) }), CREATED),
  );
  api.handle(K.renamePortalApiKeyCall, async ({ ctx, params, body, c }) =>
    answer(
      await renameSupplierApiKey(ctx, { ...body, supplierId: ownSupplier(c), keyId: params.keyId }),
      "API key renamed",
    ));
  api.handle(K.revokePortalApiKeyCall, async ({ ctx, params, c }) =>
    answer(
      await revokeSupplierApiKey(ctx, { supplierId: ownSupplier(c), keyId: params.keyId }),
      "API key revoked",
    ));
}
