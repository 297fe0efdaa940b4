/**
 * Ready To Invoice (/admin/invoice) and Archieved (/admin/invoice/archieved): projects by status on
 * the Accounts tab strip, with their completes, CPI, PO number, the invoice they are on and its total.
 */
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import { FilePlus2, FileText } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { completeReached, DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { PROJECT_STATUS_LIST } from "../../../../shared/status.ts";
import { ACCOUNT_TABS, type AccountProjectRow, archievedList, dmy, readyToInvoiceList } from "./accounts.ts";

export function AccountProjects({ archived }: { archived: boolean }) {
  const list = useList<AccountProjectRow>(archived ? archievedList : readyToInvoiceList);
  const navigate = useNavigate();
  const columns = useMemo<GridColumn<AccountProjectRow>[]>(() => [
    {
      id: "projectCode",
      header: "Project code",
      cell: (p) => (
        <Link to={`/admin/project/${p._id}/childs`} className="font-medium text-primary hover:underline">
          {p.projectCode}
        </Link>
      ),
    },
    // long titles and names wrap in their column rather than push Status off screen
    {
      id: "projectName",
      header: "Title",
      className: "min-w-40 max-w-56 whitespace-normal",
      cell: (p) => p.projectName,
    },
    {
      id: "clientName",
      header: "Client name",
      className: "min-w-28 max-w-44 whitespace-normal",
      cell: (p) => p.clientName,
    },
    countColumn<AccountProjectRow>("complete", "Complete", (p) => p.complete),
    countColumn<AccountProjectRow>("approved", "Approved", (p) => p.approved),
    moneyColumn<AccountProjectRow>("cpi", "CPI", (p) => p.cpi),
    { id: "poNumber", header: "PO number", cell: (p) => p.poNumber },
    { id: "dueDate", header: "Due date", cell: (p) => dmy(p.dueDate) },
    // in the column chooser: Status fits a 1440 px screen
    { id: "recievedDate", header: "Received date", hidden: true, cell: (p) => dmy(p.recievedDate) },
    { id: "referenceNo", header: "Reference", hidden: true, cell: (p) => p.referenceNo },
    moneyColumn<AccountProjectRow>("total", "Total", (p) => p.total),
    {
      id: "projectStatus",
      header: "Status",
      cell: (p) => {
        const s = PROJECT_STATUS_LIST.find((x) => x.value === p.projectStatus);
        return <Badge tone={(s?.color ?? "neutral") as BadgeTone}>{p.projectStatusLabel}</Badge>;
      },
    },
  ], []);
  const actions = useMemo<RowAction<AccountProjectRow>[]>(() => [
    {
      label: "Generate Invoice",
      icon: FilePlus2,
      hidden: (p) => archived || !!p.invoiceId,
      onSelect: (p) => navigate(`/admin/invoice/generate?clientId=${p.clientId}&projectId=${p._id}`),
    },
    {
      label: "View Invoice",
      icon: FileText,
      hidden: (p) => !p.invoiceId,
      onSelect: (p) => navigate(`/admin/invoice/view/${p.invoiceId}`),
    },
  ], [archived, navigate]);
  return (
    <>
      <PageHeader title="Accounts" tabs={ACCOUNT_TABS} />
      <FilterToolbar
        list={list}
        actions={archived
          ? undefined
          : <NewButton to="/admin/invoice/generate/manual">Manual Project</NewButton>}
      />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        warnRow={completeReached}
        caption={archived ? "Archieved projects" : "Projects ready to invoice"}
      />
    </>
  );
}

export default function ReadyToInvoicePage() {
  return <AccountProjects archived={false} />;
}
