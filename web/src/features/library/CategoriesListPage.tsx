/** /admin/library (part 2, Library > Categories): title, description, active toggle, edit, delete. */
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import { Pencil, Trash2 } from "lucide-react";
import { api } from "../../lib/api.ts";
import { updateCategoryCall } from "../../../../shared/api/library.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useActiveSwitch, useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Switch } from "../../components/ui/switch.tsx";
import { categoriesList, type CategoryRecord, LIBRARY_DESCRIPTION, useLibraryTabs } from "./library.ts";

export default function CategoriesListPage() {
  const list = useList<CategoryRecord>(categoriesList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();
  const tabs = useLibraryTabs();

  const setActive = useActiveSwitch(list, updateCategoryCall);

  const columns = useMemo<GridColumn<CategoryRecord>[]>(() => [
    {
      id: "categoryTitle",
      header: "Title",
      className: "min-w-48",
      cell: (c) => (
        <Link
          to={`/admin/library/category/${c._id}/edit`}
          className="rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {c.categoryTitle}
        </Link>
      ),
    },
    {
      id: "categoryDesc",
      header: "Description",
      className: "max-w-xl",
      cell: (c) => <span className="line-clamp-2 text-muted-foreground">{c.categoryDesc}</span>,
    },
    {
      id: "isActive",
      header: "Active",
      cell: (c) => (
        <div className="flex items-center gap-2">
          <Switch
            checked={c.isActive}
            disabled={!canEdit}
            aria-label={`${c.isActive ? "Deactivate" : "Activate"} ${c.categoryTitle}`}
            onCheckedChange={(isActive) => setActive(c, isActive)}
          />
          <span className="text-xs text-muted-foreground">{c.isActive ? "Active" : "Inactive"}</span>
        </div>
      ),
    },
  ], [canEdit, setActive]);

  const actions = useMemo<RowAction<CategoryRecord>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (c) => navigate(`/admin/library/category/${c._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (c) => {
        const res = await api(updateCategoryCall, { params: { id: c._id }, body: { isDeleted: true } });
        list.removeRow(c._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow]);

  return (
    <>
      <PageHeader title="Library" description={LIBRARY_DESCRIPTION} tabs={tabs} />
      <FilterToolbar
        list={list}
        actions={<NewButton to="/admin/library/category/add">New Category</NewButton>}
      />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Categories" />
    </>
  );
}
