/**
 * /supplier/api: the portal's API page (issue 23). The supplier's own API keys for the supply API
 * (`/supply/v1`, the key in the X-Api-Key header): create (shown once), rename, revoke; and the supply
 * API's reference (its OpenAPI document, served without a key) with a curl example per call. The
 * server scopes every call to the signed-in user's supplier.
 */
import { useQuery } from "@tanstack/react-query";
import type { ApiReference } from "../../../../shared/api/ops.ts";
import { ReferenceView } from "../apidocs/index.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { api, callKey } from "../../lib/api.ts";
import {
  createPortalApiKeyCall,
  listPortalApiKeysCall,
  renamePortalApiKeyCall,
  revokePortalApiKeyCall,
} from "../../../../shared/api/supplier-api-keys.ts";
import { SUPPLY_BASE } from "../../../../shared/api/supply.ts";
import { type ApiKeyCalls, ApiKeysPanel } from "../suppliers/index.ts";

const CALLS: ApiKeyCalls = {
  key: callKey(listPortalApiKeysCall),
  list: () => api(listPortalApiKeysCall),
  create: (body) => api(createPortalApiKeyCall, { body }),
  rename: (keyId, body) => api(renamePortalApiKeyCall, { params: { keyId }, body }),
  revoke: (keyId) => api(revokePortalApiKeyCall, { params: { keyId } }),
};

/** The supply API's OpenAPI document (public: no key, no session). */
async function supplyReference({ signal }: { signal: AbortSignal }): Promise<ApiReference> {
  const res = await fetch(`${SUPPLY_BASE}/openapi.json`, { signal });
  if (!res.ok) throw new Error(`The supply API reference answered ${res.status}`);
  return await res.json() as ApiReference;
}

export default function ApiPage() {
  const doc = useQuery({ queryKey: ["supply-openapi"], staleTime: Infinity, queryFn: supplyReference });
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
      <section aria-labelledby="supply-reference" className="mt-8 max-w-5xl">
        <h2 id="supply-reference" className="mb-1 text-xl font-semibold">Reference</h2>
        <p className="mb-4 text-sm text-muted-foreground">
          Every call of the supply API{doc.data ? ` (version ${doc.data.info.version})` : ""}. Tools can read
          its OpenAPI 3.1 document at{" "}
          <a className="underline" href={`${SUPPLY_BASE}/openapi.json`} target="_blank" rel="noreferrer">
            {SUPPLY_BASE}/openapi.json
          </a>; in the examples, <code>$KEY</code> is one of your keys.
        </p>
        <ReferenceView
          doc={doc.data}
          isPending={doc.isPending}
          isError={doc.isError}
          searchLabel="Search path or name"
        />
      </section>
    </>
  );
}
