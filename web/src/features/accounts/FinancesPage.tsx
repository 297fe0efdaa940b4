/**
 * Finances (/admin/invoice/supplier): suppliers with reconciled work, their accepted completes and
 * cost; edit the supplier, export its supplier maps (CSV), download a purchase order for what is not
 * on one yet.
 */
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import { Download, FileSpreadsheet, Pencil } from "lucide-react";
import { api, download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { addPurchaseOrderCall, listSupplierProjects } from "../../../../shared/api/accounts.ts";
import { ACCOUNT_TABS, type SupplierFinanceRow, supplierFinancesList } from "./accounts.ts";
import { savePurchaseOrderPdf } from "./files.ts";

export default function FinancesPage() {
  const list = useList<SupplierFinanceRow>(supplierFinancesList);
  const navigate = useNavigate();
  const columns = useMemo<GridColumn<SupplierFinanceRow>[]>(() => [
    {
      id: "supplierName",
      header: "Supplier name",
      cell: (s) => <span className="font-medium">{s.supplierName}</span>,
    },
    {
      id: "projects",
      header: "Projects",
      cell: (s) => (
        <Link to={`/admin/invoice/supplier/${s._id}/list`} className="text-primary hover:underline">
          {s.projects} project{s.projects === 1 ? "" : "s"}
        </Link>
      ),
    },
    countColumn<SupplierFinanceRow>("totalAccepted", "Total accepted", (s) => s.totalAccepted),
    moneyColumn<SupplierFinanceRow>("totalCost", "Total cost", (s) => s.totalCost),
  ], []);
  const actions = useMemo<RowAction<SupplierFinanceRow>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (s) => navigate(`/admin/supplier/${s._id}/edit`) },
    {
      // the supplier's reconciled maps, as its projects page exports them (the same declared list)
      label: "Export supplier map",
      icon: FileSpreadsheet,
      onSelect: async (s) => {
        try {
          const { blob, filename } = await download(
            listSupplierProjects,
            { params: { supplierId: s._id }, body: { pageNo: 1, limit: 100 } },
            { query: { format: "csv" } },
          );
          saveBlob(blob, filename ?? `supplier-map-${s.supplierCode || s._id}.csv`);
          notify.success("Export ready");
        } catch {
          // the API client has shown the reason
        }
      },
    },
    {
      label: "Download PO",
      icon: Download,
      confirm: {
        description: (s) => `A purchase order for ${s.supplierName}'s reconciled projects not on one yet.`,
      },
      onSelect: async (s) => {
        const res = await api(addPurchaseOrderCall, { body: { supplierId: s._id } });
        notify.success(res.message);
        const po = res.result.purchaseOrder;
        await savePurchaseOrderPdf(po._id, po.poCode);
      },
    },
  ], [navigate]);
  return (
    <>
      <PageHeader title="Accounts" tabs={ACCOUNT_TABS} />
      <FilterToolbar list={list} />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        hidePagination
        caption="Supplier finances"
      />
    </>
  );
}
