/**
 * /supplier/api: the portal's API page (issue 23). The supplier's own API keys for the supply API
 * (`/supply/v1`, the key in the X-Api-Key header): create (shown once), rename, revoke. The server
 * scopes every call to the signed-in user's supplier. Its callback URLs per event and the delivery
 * log of its signed callbacks, with Redeliver.
 */
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { api, callKey } from "../../lib/api.ts";
import {
  createPortalApiKeyCall,
  listPortalApiKeysCall,
  renamePortalApiKeyCall,
  revokePortalApiKeyCall,
} from "../../../../shared/api/supplier-api-keys.ts";
import { SUPPLY_BASE } from "../../../../shared/api/supply.ts";
import {
  type ApiKeyCalls,
  ApiKeysPanel,
  type CallbackCalls,
  CallbacksPanel,
  CallbackUrlsCard,
} from "../suppliers/index.ts";
import {
  portalCallbacksList,
  redeliverPortalCallbackCall,
} from "../../../../shared/api/supplier-callbacks.ts";

const CALLS: ApiKeyCalls = {
  key: callKey(listPortalApiKeysCall),
  list: () => api(listPortalApiKeysCall),
  create: (body) => api(createPortalApiKeyCall, { body }),
  rename: (keyId, body) => api(renamePortalApiKeyCall, { params: { keyId }, body }),
  revoke: (keyId) => api(revokePortalApiKeyCall, { params: { keyId } }),
};

const CALLBACKS: CallbackCalls = {
  list: portalCallbacksList,
  redeliver: (callbackId) => api(redeliverPortalCallbackCall, { params: { callbackId } }),
};

export default function ApiPage() {
  return (
    <>
      <PageHeader
        title="API"
        description={
          <>
            Work the exchange from your own systems: the supply API at{" "}
            <code className="rounded bg-muted px-1">{`${location.origin}${SUPPLY_BASE}`}</code>, for example
            {" "}
            <code className="rounded bg-muted px-1">
              curl -H "X-Api-Key: $KEY" {`${location.origin}${SUPPLY_BASE}/questions`}
            </code>
          </>
        }
      />
      <ApiKeysPanel calls={CALLS} className="max-w-5xl" />
      <CallbackUrlsCard className="mt-6 max-w-5xl" />
      <CallbacksPanel calls={CALLBACKS} className="mt-6" />
    </>
  );
}
