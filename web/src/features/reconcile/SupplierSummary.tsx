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
import { approveSummaryCall, supplierSummaryCall } from "../../../../shared/api/reconcile.ts";
import type { SupplierSummaryRow } from "./reconcile.ts";

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
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th className="p-2">Supplier</th>
              <th className="p-2 text-right">Complete</th>
              <th className="p-2 text-right">Approved</th>
              <th className="p-2 text-right">Rejected</th>
              <th className="p-2">Supplier CPI ($)</th>
              <th className="p-2">Admin approved</th>
              <th className="p-2 text-right">Total accepted</th>
              <th className="p-2 text-right">Cost ($)</th>
            </tr>
          </thead>
          <tbody>
            {rows.length
              ? rows.map((r) => <SummaryRow key={r.supplierId} projectId={projectId} r={r} />)
              : (
                <tr>
                  <td colSpan={8} className="p-2 text-muted-foreground">
                    {summary.isLoading ? "Loading…" : "No supplier mapped"}
                  </td>
                </tr>
              )}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

function SummaryRow({ projectId, r }: { projectId: string; r: SupplierSummaryRow }) {
  const qc = useQueryClient();
  const [cpi, setCpi] = useState(String(r.supplierCPI));
  const [approved, setApproved] = useState(r.adminApproved === null ? "" : String(r.adminApproved));
  async function save(field: "supplierCPI" | "adminApproved") {
    const body = field === "supplierCPI"
      ? { projectId, supplierId: r.supplierId, supplierCPI: cpi }
      : { projectId, supplierId: r.supplierId, adminApproved: approved.trim() === "" ? null : approved };
    if (field === "supplierCPI" && Number(cpi) === r.supplierCPI) return;
    if (field === "adminApproved" && (approved.trim() === "" ? null : Number(approved)) === r.adminApproved) {
      return;
    }
    try {
      const res = await api(approveSummaryCall, { body });
      notify.success(res.message);
      void qc.invalidateQueries({ queryKey: callKey(supplierSummaryCall, projectId) });
    } catch {
      setCpi(String(r.supplierCPI));
      setApproved(r.adminApproved === null ? "" : String(r.adminApproved));
    }
  }
  const onKey = (field: "supplierCPI" | "adminApproved") => (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") void save(field);
  };
  return (
    <tr className="border-b">
      <td className="p-2 font-medium">{r.supplierName}</td>
      <td className="p-2 text-right tabular-nums">{r.complete}</td>
      <td className="p-2 text-right tabular-nums">{r.approved}</td>
      <td className="p-2 text-right tabular-nums">{r.rejected}</td>
      <td className="p-2">
        <Input
          aria-label={`Supplier CPI of ${r.supplierName}`}
          className="w-24"
          inputMode="decimal"
          value={cpi}
          onChange={(e) => setCpi(e.target.value)}
          onBlur={() => void save("supplierCPI")}
          onKeyDown={onKey("supplierCPI")}
        />
      </td>
      <td className="p-2">
        <Input
          aria-label={`Admin approved of ${r.supplierName}`}
          className="w-24"
          inputMode="numeric"
          placeholder={String(r.approved)}
          value={approved}
          onChange={(e) => setApproved(e.target.value)}
          onBlur={() => void save("adminApproved")}
          onKeyDown={onKey("adminApproved")}
        />
      </td>
      <td className="p-2 text-right tabular-nums">{r.totalAccepted}</td>
      <td className="p-2 text-right tabular-nums">{r.cost.toFixed(2)}</td>
    </tr>
  );
}
