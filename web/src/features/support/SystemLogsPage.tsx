/** /admin/support/log (part 2, Support > System Logs): every change by staff, 10 a page, with export. */
import { useMemo } from "react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { formatDateTimeSeconds } from "../../lib/format.ts";
import { LogActivity } from "../../components/display/LogActivity.tsx";
import { SUPPORT_DESCRIPTION, type SystemLogRow, systemLogsGrid, useSupportTabs } from "./support.ts";

export default function SystemLogsPage() {
  const tabs = useSupportTabs();
  const list = useList(systemLogsGrid);
  const columns = useMemo<GridColumn<SystemLogRow>[]>(() => [
    { id: "createdAt", header: "Date/time", cell: (r) => formatDateTimeSeconds(r.createdAt) },
    { id: "name", header: "User", cell: (r) => r.name },
    {
      id: "activity",
      header: "Activity",
      className: "min-w-64",
      cell: (r) => <LogActivity activity={r.activity} changes={r.changes} />,
    },
    { id: "ipAddress", header: "IP address", cell: (r) => r.ipAddress },
    { id: "device", header: "Device", cell: (r) => r.device },
    { id: "city", header: "City", cell: (r) => r.city },
    { id: "country", header: "Country", cell: (r) => r.country },
    { id: "module", header: "Module", cell: (r) => r.module },
  ], []);
  return (
    <>
      <PageHeader title="Support" description={SUPPORT_DESCRIPTION} tabs={tabs} />
      <FilterToolbar list={list} />
      <DataGrid list={list} columns={columns} caption="System Logs" />
    </>
  );
}
