/**
 * /admin/invoice/supplier/:supplierid/list: the projects reconciled for one supplier (its maps on
 * them), named for the supplier; filters client, supplier (another supplier's page, the other
 * filters kept), user, export, search.
 */
import { useMemo } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { Select } from "../../components/ui/select.tsx";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { SUPPLIERS } from "../../lib/lookups.ts";
import {
  ACCOUNT_TABS,
  type SupplierProjectRow,
  supplierProjectsList,
  type SupplierProjectsMeta,
} from "./accounts.ts";

export default function SupplierProjectsPage() {
  const { supplierid = "" } = useParams();
  const decl = useMemo(() => supplierProjectsList(supplierid), [supplierid]);
  const list = useList<SupplierProjectRow>(decl);
  const meta = list.metadata as (typeof list.metadata & Partial<SupplierProjectsMeta>) | undefined;
  const name = meta?.supplierName;
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
      <PageHeader
        title={name ? `Supplier projects: ${name}` : "Supplier projects"}
        description={meta?.supplierCode ? `Reconciled work of ${name} (${meta.supplierCode})` : undefined}
        tabs={ACCOUNT_TABS}
      />
      <FilterToolbar list={list} actions={<SupplierFilter current={supplierid} currentName={name} />} />
      <DataGrid list={list} columns={columns} caption={`Reconciled projects of ${name ?? "the supplier"}`} />
    </>
  );
}

/** The spec's supplier filter: the page of another supplier, with the other filters kept. */
function SupplierFilter({ current, currentName }: { current: string; currentName?: string }) {
  const { options } = useOptions(SUPPLIERS);
  const navigate = useNavigate();
  const { search } = useLocation();
  // a supplier no longer active still names its own page
  const all = options.some((o) => o.value === current) || !currentName
    ? options
    : [{ value: current, label: currentName }, ...options];
  return (
    <Select
      ariaLabel="Supplier"
      className="w-auto min-w-36 max-w-60"
      value={current}
      options={all}
      placeholder="Supplier"
      onValueChange={(id) => {
        // the page number belongs to the other supplier's list no more
        const q = new URLSearchParams(search);
        q.delete("page");
        if (id && id !== current) navigate(`/admin/invoice/supplier/${id}/list${q.size ? `?${q}` : ""}`);
      }}
    />
  );
}
