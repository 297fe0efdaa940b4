/**
 * A supplier's signed callbacks (issue 23, item 3): handlers of shared/api/supplier-callbacks.ts.
 * Staff name the supplier in the path; a SUPPLIER user's calls are scoped to the user's own
 * supplier, whatever is sent.
 */
import { answer, type Api } from "../http/api.ts";
import type { HttpCtx } from "../http/context.ts";
import { listResponse } from "../http/list-route.ts";
import * as C from "../../shared/api/supplier-callbacks.ts";
import {
  assertCallbackSupplier,
  callbackLogQuery,
  callbackLogSpec,
  callbackRow,
  callbackSecret,
  getCallbackUrls,
  redeliverCallback,
  updateCallbackUrls,
} from "../domain/suppliers/callbacks.ts";
import type { Db } from "../db/connection.ts";
import type { ListBody } from "../../shared/list.ts";
import { ownSupplier } from "./supplier-api-keys.ts";

const REDELIVERED = "Callback queued for redelivery";

async function log(
  c: HttpCtx,
  db: Db,
  supplierId: string,
  body: ListBody,
  list: typeof C.supplierCallbacksList,
) {
  await assertCallbackSupplier(db, supplierId);
  return listResponse(c, body, {
    query: callbackLogQuery(db, supplierId),
    spec: callbackLogSpec,
    map: callbackRow,
    list,
  });
}

export function supplierCallbackRoutes(api: Api) {
  api.handle(
    C.supplierCallbacksCall,
    ({ db, params, body, c }) => log(c, db, params.id, body, C.supplierCallbacksList),
  );
  api.handle(
    C.redeliverSupplierCallbackCall,
    async ({ ctx, params }) =>
      answer(
        await redeliverCallback(ctx, { supplierId: params.id, callbackId: params.callbackId }),
        REDELIVERED,
      ),
  );

  api.handle(
    C.portalCallbacksCall,
    ({ db, body, c }) => log(c, db, ownSupplier(c), body, C.portalCallbacksList),
  );
  api.handle(
    C.redeliverPortalCallbackCall,
    async ({ ctx, params, c }) =>
      answer(
        await redeliverCallback(ctx, { supplierId: ownSupplier(c), callbackId: params.callbackId }),
        REDELIVERED,
      ),
  );
  api.handle(C.portalCallbackUrlsCall, ({ db, c }) => getCallbackUrls(db, ownSupplier(c)));
  api.handle(
    C.revealPortalCallbackSecretCall,
    ({ ctx, c }) => callbackSecret(ctx, { supplierId: ownSupplier(c), rotate: false }),
  );
  api.handle(C.rotatePortalCallbackSecretCall, async ({ ctx, c }) =>
    answer(
      await callbackSecret(ctx, { supplierId: ownSupplier(c), rotate: true }),
      "Signing secret rotated: callbacks are signed with the new one from now on",
    ));
  api.handle(
    C.updatePortalCallbackUrlsCall,
    async ({ ctx, body, c }) =>
      answer(await updateCallbackUrls(ctx, { ...body, supplierId: ownSupplier(c) }), "Callback URLs saved"),
  );
}
