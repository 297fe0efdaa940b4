/**
 * /admin/support/job (part 2, Support > Scheduled Jobs): project number and name, interval, comment,
 * created on and by, the Soft and Status toggles, the last run and its outcome; edit and delete.
 */
import { useCallback, useMemo } from "react";
import { useNavigate } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatDateTime } from "../../lib/format.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useActiveSwitch, useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Switch } from "../../components/ui/switch.tsx";
import { updateJobCall } from "../../../../shared/api/support.ts";
import { jobsGrid, type ScheduledJob, SUPPORT_DESCRIPTION, useSupportTabs } from "./support.ts";

export default function JobsListPage() {
  const tabs = useSupportTabs();
  const list = useList<ScheduledJob, "isSoft">(jobsGrid);
  const navigate = useNavigate();
  const canEdit = useCanEdit();
  const setActive = useActiveSwitch(list, updateJobCall);
  const { patchRow, invalidate } = list;
  const { mutate: soft } = useMutation({
    mutationFn: ({ row, isSoft }: { row: ScheduledJob; isSoft: boolean }) =>
      api(updateJobCall, { params: { id: row._id }, body: { isSoft } }),
    onMutate: ({ row, isSoft }) => patchRow(row._id, { isSoft }),
    onSuccess: (res) => notify.success(res.message),
    onError: (_e, { row }) => patchRow(row._id, { isSoft: row.isSoft }),
    onSettled: () => void invalidate(),
  });
  const setSoft = useCallback((row: ScheduledJob, isSoft: boolean) => soft({ row, isSoft }), [soft]);

  const columns = useMemo<GridColumn<ScheduledJob>[]>(() => [
    { id: "projectCode", header: "Project number", cell: (j) => j.projectCode },
    { id: "projectName", header: "Project name", className: "min-w-40", cell: (j) => j.projectName },
    { id: "interval", header: "Interval", align: "right", cell: (j) => `${j.interval} min` },
    // in the column chooser: Soft and Status fit a 1440 px screen
    {
      id: "comment",
      header: "Comment",
      hidden: true,
      className: "max-w-56 truncate",
      cell: (j) => j.comment,
    },
    { id: "createdAt", header: "Created on", cell: (j) => formatDateTime(j.createdAt) },
    { id: "fullName", header: "Created by", hidden: true, cell: (j) => j.fullName },
    {
      id: "lastRun",
      sort: "lastRunAt",
      header: "Last run",
      className: "min-w-56",
      cell: (j) =>
        j.lastRunAt
          ? (
            <div className="flex flex-col">
              <span>{formatDateTime(j.lastRunAt)}</span>
              <span
                className={j.lastStatus === "error"
                  ? "text-xs text-destructive"
                  : "text-xs text-muted-foreground"}
              >
                {j.lastOutcome}
              </span>
            </div>
          )
          : <span className="text-muted-foreground">Not run yet</span>,
    },
    {
      id: "isSoft",
      header: "Soft",
      cell: (j) => (
        <Switch
          checked={j.isSoft}
          disabled={!canEdit}
          title={j.isSoft ? "Soft: only e-mails the progress report" : "Pauses and closes the project"}
          aria-label={`Soft job on ${j.projectCode}`}
          onCheckedChange={(v) => setSoft(j, v)}
        />
      ),
    },
    {
      id: "isActive",
      header: "Status",
      cell: (j) => (
        <Switch
          checked={j.isActive}
          disabled={!canEdit}
          title={j.isActive ? "Active" : "Inactive"}
          aria-label={`${j.isActive ? "Deactivate" : "Activate"} job on ${j.projectCode}`}
          onCheckedChange={(v) => setActive(j, v)}
        />
      ),
    },
  ], [canEdit, setActive, setSoft]);

  const actions = useMemo<RowAction<ScheduledJob>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (j) => navigate(`/admin/support/job/${j._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (j) => {
        const res = await api(updateJobCall, { params: { id: j._id }, body: { isDeleted: true } });
        list.removeRow(j._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow]);

  return (
    <>
      <PageHeader title="Support" description={SUPPORT_DESCRIPTION} tabs={tabs} />
      <FilterToolbar
        list={list}
        actions={<NewButton to="/admin/support/job/add">Add Schedule Job</NewButton>}
      />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        caption="Scheduled Jobs"
        emptyText="No scheduled job yet."
      />
    </>
  );
}
