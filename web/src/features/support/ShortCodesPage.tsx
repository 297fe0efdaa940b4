/** /admin/support/shortcode (part 2, Support > ShortCodes): the codes the router fills in links. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, callKey } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Input } from "../../components/ui/input.tsx";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";
import { shortCodesCall } from "../../../../shared/api/support.ts";
import { SUPPORT_DESCRIPTION, useSupportTabs } from "./support.ts";

const CODES_LOOK: TableLook = {
  wrapper: "overflow-x-auto rounded-md border",
  table: "w-full text-sm",
  caption: "sr-only",
  header: "bg-muted/50 text-left",
  head: "px-3 py-2 font-medium",
  row: "border-t align-top",
  cell: "px-3 py-2",
  empty: "px-3 py-6 text-center text-muted-foreground",
};

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
      <StaticTable
        look={CODES_LOOK}
        caption="ShortCodes"
        rows={codes.isLoading ? [] : rows}
        rowKey={(c) => c.shortCodeName}
        empty={codes.isLoading ? "Loading…" : "No short code matches."}
        columns={[
          { header: "Name", cell: (c) => c.shortCodeName, className: "font-mono" },
          { header: "Description", cell: (c) => c.shortCodeDescription },
          { header: "Filled in", cell: (c) => c.filledIn.join("; "), className: "text-muted-foreground" },
        ]}
      />
    </>
  );
}
