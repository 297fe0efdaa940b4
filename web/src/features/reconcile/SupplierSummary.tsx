/**
 * The supplier summary of a project (part 2, 3 and 7): per supplier its completes, reconciled
 * approved and rejected counts, the supplier CPI and the admin-approved count (both editable: saved
 * on Enter or when the field is left), what is accepted and what it costs.
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Input } from "../../components/ui/input.tsx";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";
import { approveSummaryCall, supplierSummaryCall } from "../../../../shared/api/reconcile.ts";
import type { SupplierSummaryRow } from "./reconcile.ts";

const SUMMARY_LOOK: TableLook = {
  table: "w-full text-sm",
  headRow: "border-b text-left text-muted-foreground",
  head: "p-2",
  row: "border-b",
  cell: "p-2",
  empty: "p-2 text-muted-foreground",
};

export function SupplierSummary({ projectId }: { projectId: string }) {
  const summary = useQuery({
    queryKey: callKey(supplierSummaryCall, projectId),
    queryFn: async () => (await api(supplierSummaryCall, { body: { projectId } })).result,
  });
  const rows = summary.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Supplier summary</CardTitle>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <StaticTable
          look={SUMMARY_LOOK}
          rows={rows}
          rowKey={(r) => r.supplierId}
          empty={summary.isLoading ? "Loading…" : "No supplier mapped"}
          columns={[
            { header: "Supplier", cell: (r) => r.supplierName, className: "font-medium" },
            { header: "Complete", cell: (r) => r.complete, numeric: true },
            { header: "Approved", cell: (r) => r.approved, numeric: true },
            { header: "Rejected", cell: (r) => r.rejected, numeric: true },
            {
              header: "Supplier CPI ($)",
              cell: (r) => <SummaryInput projectId={projectId} r={r} field="supplierCPI" />,
            },
            {
              header: "Admin approved",
              cell: (r) => <SummaryInput projectId={projectId} r={r} field="adminApproved" />,
            },
            { header: "Total accepted", cell: (r) => r.totalAccepted, numeric: true },
            { header: "Cost ($)", cell: (r) => r.cost.toFixed(2), numeric: true },
          ]}
        />
      </CardContent>
    </Card>
  );
}

type Editable = "supplierCPI" | "adminApproved";

/** The saved value of an editable figure, as its box shows it ("" for no admin-approved count). */
function savedText(r: SupplierSummaryRow, field: Editable): string {
  if (field === "supplierCPI") return String(r.supplierCPI);
  return r.adminApproved === null ? "" : String(r.adminApproved);
}

/** The supplier CPI or admin-approved box of a row: saved on Enter or when left, if changed. */
function SummaryInput(
  { projectId, r, field }: { projectId: string; r: SupplierSummaryRow; field: Editable },
) {
  const qc = useQueryClient();
  const [value, setValue] = useState(() => savedText(r, field));
  async function save() {
    const body = field === "supplierCPI"
      ? { projectId, supplierId: r.supplierId, supplierCPI: value }
      : { projectId, supplierId: r.supplierId, adminApproved: value.trim() === "" ? null : value };
    if (field === "supplierCPI" && Number(value) === r.supplierCPI) return;
    if (field === "adminApproved" && (value.trim() === "" ? null : Number(value)) === r.adminApproved) return;
    try {
      const res = await api(approveSummaryCall, { body });
      notify.success(res.message);
      void qc.invalidateQueries({ queryKey: callKey(supplierSummaryCall, projectId) });
    } catch {
      setValue(savedText(r, field));
    }
  }
  const cpi = field === "supplierCPI";
  return (
    <Input
      aria-label={`${cpi ? "Supplier CPI" : "Admin approved"} of ${r.supplierName}`}
      className="w-24"
      inputMode={cpi ? "decimal" : "numeric"}
      placeholder={cpi ? undefined : String(r.approved)}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void save()}
      onKeyDown={(e) => {
        if (e.key === "Enter") void save();
      }}
    />
  );
}
