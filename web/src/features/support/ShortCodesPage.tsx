/** /admin/support/shortcode (part 2, Support > ShortCodes): the codes the router fills in links. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, callKey } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Input } from "../../components/ui/input.tsx";
import { shortCodesCall } from "../../../../shared/api/support.ts";
import { SUPPORT_DESCRIPTION, useSupportTabs } from "./support.ts";

export default function ShortCodesPage() {
  const tabs = useSupportTabs();
  const [filter, setFilter] = useState("");
  const codes = useQuery({
    queryKey: callKey(shortCodesCall),
    queryFn: async ({ signal }) => (await api(shortCodesCall, { body: {} }, { signal })).result,
  });
  const f = filter.trim().toLowerCase();
  const rows = (codes.data ?? []).filter((c) =>
    !f || c.shortCodeName.toLowerCase().includes(f) || c.shortCodeDescription.toLowerCase().includes(f)
  );
  return (
    <>
      <PageHeader title="Support" description={SUPPORT_DESCRIPTION} tabs={tabs} />
      <p className="mb-3 max-w-3xl text-sm text-muted-foreground">
        Put these in supplier redirects, client survey links and approved hooks; the router replaces them for
        each respondent. Each may also be written {"{name}"},{" "}
        {"<name>"}, ##name## or URL-encoded, in any case.
      </p>
      <Input
        aria-label="Search short codes"
        placeholder="Search short codes"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        className="mb-3 max-w-xs"
      />
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-sm">
          <caption className="sr-only">ShortCodes</caption>
          <thead className="bg-muted/50 text-left">
            <tr>
              <th className="px-3 py-2 font-medium">Name</th>
              <th className="px-3 py-2 font-medium">Description</th>
              <th className="px-3 py-2 font-medium">Filled in</th>
            </tr>
          </thead>
          <tbody>
            {codes.isLoading
              ? (
                <tr>
                  <td colSpan={3} className="px-3 py-6 text-center text-muted-foreground">Loading…</td>
                </tr>
              )
              : rows.length
              ? rows.map((c) => (
                <tr key={c.shortCodeName} className="border-t align-top">
                  <td className="px-3 py-2 font-mono">{c.shortCodeName}</td>
                  <td className="px-3 py-2">{c.shortCodeDescription}</td>
                  <td className="px-3 py-2 text-muted-foreground">{c.filledIn.join("; ")}</td>
                </tr>
              ))
              : (
                <tr>
                  <td colSpan={3} className="px-3 py-6 text-center text-muted-foreground">
                    No short code matches.
                  </td>
                </tr>
              )}
          </tbody>
        </table>
      </div>
    </>
  );
}
