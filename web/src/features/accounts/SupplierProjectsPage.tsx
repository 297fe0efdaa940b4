/** /admin/invoice/supplier/:supplierid/list: the projects reconciled for one supplier. */
import { useMemo } from "react";
import { useParams } from "react-router";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { countColumn, moneyColumn } from "../common/columns.tsx";
import { pathOf } from "../../../../shared/api/contract.ts";
import { ACCOUNT_TABS, type SupplierProjectRow, supplierProjectsList } from "./accounts.ts";

export default function SupplierProjectsPage() {
  const { supplierid = "" } = useParams();
  const decl = useMemo(() => {
    const d = supplierProjectsList(supplierid);
    // the list call of this supplier: its path with the supplier filled in
    const call = { ...d.list!.call, path: pathOf(d.list!.call as never, { supplierId: supplierid }) };
    return { ...d, list: { ...d.list!, call } };
  }, [supplierid]);
  const list = useList<SupplierProjectRow>(decl);
  const columns = useMemo<GridColumn<SupplierProjectRow>[]>(() => [
    {
      id: "projectCode",
      header: "Project code",
      cell: (p) => <span className="font-medium">{p.projectCode}</span>,
    },
    { id: "projectName", header: "Title", cell: (p) => p.projectName },
    { id: "clientName", header: "Client name", cell: (p) => p.clientName },
    moneyColumn<SupplierProjectRow>("supplierCPI", "Supplier CPI", (p) => p.supplierCPI),
    countColumn<SupplierProjectRow>("totalAccepted", "Total accepted", (p) => p.totalAccepted),
    moneyColumn<SupplierProjectRow>("totalCost", "Total cost", (p) => p.totalCost),
    { id: "poCode", header: "PO number", cell: (p) => p.poCode },
  ], []);
  return (
    <>
      <PageHeader title="Supplier projects" tabs={ACCOUNT_TABS} />
      <FilterToolbar list={list} />
      <DataGrid list={list} columns={columns} caption="Reconciled projects of the supplier" />
    </>
  );
}
