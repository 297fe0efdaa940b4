/** Purchase Order (/admin/invoice/supplier/list): purchase orders, the Upload Ref. No. dialog, PDF download. */
import { useMemo } from "react";
import { Download } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { moneyColumn } from "../../components/data-grid/columns.tsx";
import { ACCOUNT_TABS, dmy, type PurchaseOrderListItem, purchaseOrdersList } from "./accounts.ts";
import { RefUploadDialog } from "./RefUploadDialog.tsx";
import { savePurchaseOrderPdf } from "./files.ts";

export default function PurchaseOrdersPage() {
  const list = useList<PurchaseOrderListItem>(purchaseOrdersList);
  const columns = useMemo<GridColumn<PurchaseOrderListItem>[]>(() => [
    { id: "poCode", header: "PO number", cell: (p) => <span className="font-medium">{p.poCode}</span> },
    { id: "supplierName", header: "Supplier name", cell: (p) => p.supplierName },
    { id: "createdAt", header: "Created date", cell: (p) => dmy(p.createdAt) },
    { id: "dueDate", header: "Due date", cell: (p) => dmy(p.dueDate) },
    { id: "recievedDate", header: "Received date", cell: (p) => dmy(p.recievedDate) },
    { id: "referenceNo", header: "Reference", cell: (p) => p.referenceNo },
    { id: "comment", header: "Comment", className: "max-w-56 truncate", cell: (p) => p.comment },
    moneyColumn<PurchaseOrderListItem>("total", "Amount", (p) => p.total),
    {
      id: "poStatus",
      header: "Status",
      cell: (p) => <Badge tone={p.poStatus === 2 ? "green" : "amber"}>{p.poStatusLabel}</Badge>,
    },
  ], []);
  const actions = useMemo<RowAction<PurchaseOrderListItem>[]>(() => [
    { label: "Download PO", icon: Download, onSelect: (p) => savePurchaseOrderPdf(p._id, p.poCode) },
  ], []);
  return (
    <>
      <PageHeader title="Accounts" tabs={ACCOUNT_TABS} />
      <FilterToolbar
        list={list}
        actions={<RefUploadDialog kind="purchaseOrder" onDone={() => void list.invalidate()} />}
      />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Purchase orders" />
    </>
  );
}
