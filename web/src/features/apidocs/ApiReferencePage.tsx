/**
 * /admin/support/api-reference (APIMANAGER, SUPERADMIN): the OpenAPI document of every /api/v1
 * call, generated on the server from the contracts, shown by area: method, path, roles, path and
 * query parameters, and the body's fields. The raw document is at /api/v1/openapi.json for tools.
 */
import { useQuery } from "@tanstack/react-query";
import { apiReferenceCall } from "../../../../shared/api/ops.ts";
import { api, API_BASE, callKey } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { ReferenceView } from "./ReferenceView.tsx";

export default function ApiReferencePage() {
  const doc = useQuery({
    queryKey: callKey(apiReferenceCall),
    staleTime: Infinity,
    queryFn: async ({ signal }) => (await api(apiReferenceCall, {}, { signal })).result,
  });
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every call of the Samplex API{doc.data ? ` (version ${doc.data.info.version})` : ""}, generated
            from the same schemas that check the requests. Send the token of <code>POST /admin/login</code> as
            {" "}
            <code>Authorization: Bearer …</code>. Tools can read the OpenAPI 3.1 document at{" "}
            <a className="underline" href={`${API_BASE}/openapi.json`} target="_blank" rel="noreferrer">
              {API_BASE}/openapi.json
            </a>.
          </>
        }
      />
      <ReferenceView doc={doc.data} isPending={doc.isPending} isError={doc.isError} />
    </>
  );
}
