/**
 * Invoices (/admin/invoice/list): the invoices with due and received dates (dd/mm/yyyy), reference,
 * comment, amount and status; edit, edit status, view and PDF download; Generate Invoice and
 * Upload Ref. No. Rows warn when the invoiced projects' completes reach their sample size.
 */
import { useMemo } from "react";
import { useNavigate } from "react-router";
import { Download, Eye, Pencil, ReceiptText } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { completeReached, DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { moneyColumn } from "../../components/data-grid/columns.tsx";
import { ACCOUNT_TABS, dmy, type InvoiceListItem, invoicesList } from "./accounts.ts";
import { RefUploadDialog } from "./RefUploadDialog.tsx";
import { saveInvoicePdf } from "./files.ts";

export default function InvoicesListPage() {
  const list = useList<InvoiceListItem>(invoicesList);
  const navigate = useNavigate();
  const columns = useMemo<GridColumn<InvoiceListItem>[]>(() => [
    { id: "projectCodes", header: "Project code", className: "min-w-32", cell: (i) => i.projectCodes },
    {
      id: "invoiceCode",
      header: "Invoice number",
      cell: (i) => <span className="font-medium">{i.invoiceCode}</span>,
    },
    { id: "clientName", header: "Client name", cell: (i) => i.clientName },
    { id: "dueDate", header: "Due date", cell: (i) => dmy(i.dueDate) },
    { id: "recievedDate", header: "Received date", cell: (i) => dmy(i.recievedDate) },
    { id: "referenceNo", header: "Reference", cell: (i) => i.referenceNo },
    { id: "comment", header: "Comment", className: "max-w-56 truncate", cell: (i) => i.comment },
    moneyColumn<InvoiceListItem>("total", "Amount", (i) => i.total),
    {
      id: "invoiceStatus",
      header: "Status",
      cell: (i) => <Badge tone={i.invoiceStatus === 2 ? "green" : "amber"}>{i.invoiceStatusLabel}</Badge>,
    },
  ], []);
  const actions = useMemo<RowAction<InvoiceListItem>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (i) => navigate(`/admin/invoice/generate/${i._id}/edit`) },
    {
      label: "Edit Status",
      icon: ReceiptText,
      onSelect: (i) => navigate(`/admin/invoice/status/${i._id}/edit`),
    },
    { label: "View", icon: Eye, onSelect: (i) => navigate(`/admin/invoice/view/${i._id}`) },
    { label: "Download PDF", icon: Download, onSelect: (i) => saveInvoicePdf(i._id, i.invoiceCode) },
  ], [navigate]);
  return (
    <>
      <PageHeader title="Accounts" tabs={ACCOUNT_TABS} />
      <FilterToolbar
        list={list}
        actions={
          <>
            <RefUploadDialog kind="invoice" onDone={() => void list.invalidate()} />
            <NewButton to="/admin/invoice/generate">Generate Invoice</NewButton>
          </>
        }
      />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        warnRow={completeReached}
        caption="Invoices"
      />
    </>
  );
}
