/**
 * The one data grid (part 1, 2.4): server paging through `useList`, 'No Rows' (with a way out when
 * filters hide every row), loading and error states shown in place, a row action menu in labelled
 * groups (disabled for SUBSCRIBER and BDE) with 'Are you sure?' confirmation naming the record, a
 * warning style with its reason (rows that reached their sample size) and optional row selection.
 * A table wider than its box scrolls sideways with visible cues: faded edges, and the row menu
 * column pinned to the right so every row keeps its actions in view.
 * Rendering goes through TanStack Table 9 (`useTable`) with manual pagination.
 */
import * as React from "react";
import {
  type ColumnDef,
  functionalUpdate,
  type PaginationState,
  type RowData,
  rowPaginationFeature,
  rowSelectionFeature,
  type RowSelectionState,
  tableFeatures,
  type Updater,
  useTable,
} from "@tanstack/react-table";
import { FilterX, Inbox, RotateCw, TriangleAlert } from "lucide-react";
import { MSG } from "../../../../shared/messages.ts";
import { READ_ONLY_ROLES } from "../../../../shared/roles.ts";
import { useAuth } from "../../lib/auth.ts";
import { cn } from "../../lib/utils.ts";
import { Button } from "../ui/button.tsx";
import { Checkbox } from "../ui/checkbox.tsx";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { Pagination } from "./Pagination.tsx";
import { confirmFor } from "./row-actions.ts";
import type { GridColumn, RowAction, RowActionEntry } from "./types.ts";
import { ColumnChoiceContext, ColumnChooser, useColumnChoice } from "./ColumnChooser.tsx";
import { READ_ONLY_CHANGE_REASON, RowMenu } from "./RowMenu.tsx";
import { ariaSort, columnSort, SortButton, SortContext } from "./SortHeader.tsx";
import { SelectionRegion } from "./SelectionRegion.tsx";
import { type GridTotals, TotalsRow } from "./TotalsRow.tsx";
import { useSideOverflow } from "./useSideOverflow.ts";
import { COMPLETE_REACHED, completeReached, WarnLegend } from "./warn-rows.tsx";
import type { ListController } from "./useList.ts";
import { GRID_CELL, GRID_HEAD_CELL, GRID_ROW } from "./styles.ts";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "../ui/table.tsx";

const features = tableFeatures({ rowPaginationFeature, rowSelectionFeature });
type Features = typeof features;

export { COMPLETE_REACHED, completeReached, READ_ONLY_CHANGE_REASON, useSideOverflow };

/** Whether the signed-in role may use row menus and New buttons. */
export function useCanEdit(): boolean {
  const role = useAuth((s) => s.admin?.role);
  return !!role && !READ_ONLY_ROLES.includes(role);
}

const EMPTY: never[] = [];

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export type DataGridProps<T> = {
  list: ListController<T>;
  columns: GridColumn<T>[];
  /** The row menu: actions, or groups of them shown under their labels between separators. */
  rowActions?: RowActionEntry<T>[];
  /**
   * Rows to show in the warning (amber) style. Answering with a reason rather than `true` explains
   * it: the row's tooltip, and a legend under the grid ("Amber: <reason>") while such rows show.
   */
  warnRow?: (row: T) => boolean | string | null | undefined;
  /**
   * Row selection by checkbox (kept across pages); `selectionBar` renders the content of a drawer
   * fixed to the bottom of the screen while at least one row is selected (the projects drawer).
   */
  selectable?: boolean;
  selectionBar?: (rows: T[], clear: () => void) => React.ReactNode;
  emptyText?: string;
  hidePagination?: boolean;
  caption?: string;
  /** A totals row under the rows (by column id), while there are rows: figures over every matching row. */
  totals?: GridTotals | null;
};

export function DataGrid<T extends RowData>({
  list,
  columns,
  rowActions,
  warnRow,
  selectable = false,
  selectionBar,
  emptyText = MSG.noRows,
  hidePagination = false,
  caption,
  totals,
}: DataGridProps<T>) {
  const canEdit = useCanEdit();
  const [rowSelection, setRowSelection] = React.useState<RowSelectionState>({});
  const selectedRows = React.useRef(new Map<string, T>());
  const [pending, setPending] = React.useState<{ action: RowAction<T>; row: T } | null>(null);
  const [busy, setBusy] = React.useState(false);
  const { query, rowId } = { query: list.query, rowId: list.decl.rowId };
  const scroller = React.useRef<HTMLDivElement>(null);
  const overflow = useSideOverflow(scroller);
  const lockedId = React.useId();
  const legendId = React.useId();
  const hasActions = !!rowActions?.length;
  const choice = useColumnChoice(list.decl.id ?? list.decl.list.id, columns);
  const shown = choice.visible;
  const sorts = list.decl.list.sorts;
  const { setSort, body: { sortBy, sortDir } } = list;
  const sortState = React.useMemo(() => ({ sortBy, sortDir }), [sortBy, sortDir]);
  const sortContext = React.useMemo(() => ({ state: sortState, onSort: setSort }), [sortState, setSort]);
  const chooserContext = React.useMemo(() => ({ columns, choice }), [columns, choice]);

  const byId = React.useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);

  const tableColumns = React.useMemo<ColumnDef<Features, T>[]>(() => {
    const defs: ColumnDef<Features, T>[] = [];
    if (selectable) {
      defs.push({
        id: "__select",
        header: ({ table }) => (
          <Checkbox
            aria-label="Select all rows on this page"
            checked={table.getIsAllPageRowsSelected()
              ? true
              : table.getIsSomePageRowsSelected()
              ? "indeterminate"
              : false}
            onCheckedChange={(c) => table.toggleAllPageRowsSelected(c === true)}
          />
        ),
        cell: ({ row }) => (
          <Checkbox
            aria-label="Select row"
            checked={row.getIsSelected()}
            onCheckedChange={(c) => row.toggleSelected(c === true)}
          />
        ),
      });
    }
    // their headers: headerOf (below)
    for (const col of shown) {
      defs.push({
        id: col.id,
        header: () => null,
        cell: ({ row }) => col.cell(row.original),
      });
    }
    // the last column: the column chooser in its header, each row's menu in its cells
    defs.push({
      id: "__actions",
      header: () => (
        <span className="inline-flex items-center gap-1">
          {rowActions?.length ? <span className="sr-only">Actions</span> : null}
          <ColumnChooser />
        </span>
      ),
      cell: ({ row }) =>
        rowActions?.length
          ? (
            <RowMenu
              row={row.original}
              entries={rowActions}
              lockedBy={canEdit ? null : lockedId}
              onPick={(action) => {
                if (action.confirm) setPending({ action, row: row.original });
                else void action.onSelect(row.original);
              }}
            />
          )
          : null,
    });
    return defs;
  }, [shown, rowActions, selectable, canEdit, lockedId]);

  const pagination: PaginationState = { pageIndex: list.pageNo - 1, pageSize: list.limit };

  const table = useTable({
    features,
    columns: tableColumns,
    data: list.rows ?? EMPTY,
    getRowId: (row: T) => rowId(row),
    manualPagination: true,
    rowCount: list.total,
    enableRowSelection: selectable,
    state: { pagination, rowSelection },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = functionalUpdate(updater, pagination);
      if (next.pageSize !== pagination.pageSize) list.setPageSize(next.pageSize);
      else if (next.pageIndex !== pagination.pageIndex) list.setPage(next.pageIndex + 1);
    },
    onRowSelectionChange: (updater: Updater<RowSelectionState>) => {
      setRowSelection((prev) => {
        const next = functionalUpdate(updater, prev);
        for (const r of list.rows ?? []) {
          const id = rowId(r);
          if (next[id]) selectedRows.current.set(id, r);
          else selectedRows.current.delete(id);
        }
        for (const id of [...selectedRows.current.keys()]) if (!next[id]) selectedRows.current.delete(id);
        return next;
      });
    },
  });

  const clearSelection = React.useCallback(() => {
    selectedRows.current.clear();
    setRowSelection({});
  }, []);

  const headers = table.getHeaderGroups();
  const rows = table.getRowModel().rows;
  const colCount = tableColumns.length;
  const initialLoading = query.isPending;
  const refreshing = query.isFetching && !query.isPending;
  const failedEmpty = query.isError && !list.rows;

  const confirm = pending ? confirmFor(pending.action, pending.row) : {};
  // the reasons of the amber rows on this page, for the legend
  const warnReasons = initialLoading || failedEmpty
    ? []
    : [...new Set(rows.map((r) => warnRow?.(r.original)).filter((w): w is string => typeof w === "string"))];

  /**
   * A data column's header, rendered here rather than through the table's renderer: a header
   * function made anew remounts its button, and a sort from the keyboard would lose the focus.
   */
  function headerOf(id: string) {
    const col = byId.get(id);
    if (!col) return null;
    const key = columnSort(col, sorts);
    return key ? <SortButton label={col.header} sortKey={key} align={col.align} /> : <>{col.header}</>;
  }

  function sortKeyOf(id: string) {
    const col = byId.get(id);
    return col ? columnSort(col, sorts) : null;
  }

  function cellClass(id: string) {
    const col = byId.get(id);
    return cn(
      col?.align === "right" && "text-right",
      col?.align === "center" && "text-center",
      id === "__select" && "w-10",
      id === "__actions" && "grid-sticky-end w-12 px-2 text-right",
    );
  }

  return (
    <SortContext.Provider value={sortContext}>
      <ColumnChoiceContext.Provider value={chooserContext as never}>
        <div className="flex flex-col gap-3">
          <div className="relative overflow-hidden rounded-xl border bg-card shadow-xs">
            <div
              className={cn(
                "absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden transition-opacity",
                refreshing ? "opacity-100" : "opacity-0",
              )}
              aria-hidden="true"
            >
              <div className="h-full w-1/3 animate-[grid-progress_1s_ease-in-out_infinite] bg-primary" />
            </div>
            <div
              aria-hidden="true"
              className={cn(
                "pointer-events-none absolute inset-y-0 left-0 z-[2] w-10 bg-linear-to-r from-foreground/15 to-transparent transition-opacity",
                overflow.left ? "opacity-100" : "opacity-0",
              )}
            />
            {hasActions ? null : (
              <div
                aria-hidden="true"
                className={cn(
                  "pointer-events-none absolute inset-y-0 right-0 z-[2] w-10 bg-linear-to-l from-foreground/15 to-transparent transition-opacity",
                  overflow.right ? "opacity-100" : "opacity-0",
                )}
              />
            )}
            <div
              ref={scroller}
              className="grid-scroll overflow-x-auto focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
              data-overflow-left={overflow.left || undefined}
              data-overflow-right={overflow.right || undefined}
              data-testid="data-grid-scroll"
              // a box that scrolls sideways can be scrolled from the keyboard too
              tabIndex={overflow.left || overflow.right ? 0 : undefined}
              role={overflow.left || overflow.right ? "region" : undefined}
              aria-label={overflow.left || overflow.right
                ? `${caption ?? "Table"}, scrolls sideways`
                : undefined}
            >
              <Table
                className="w-full caption-bottom border-collapse text-sm"
                aria-busy={query.isFetching || undefined}
                data-testid="data-grid"
              >
                {caption ? <TableCaption className="sr-only">{caption}</TableCaption> : null}
                <TableHeader className="bg-muted/60">
                  {headers.map((group) => (
                    <TableRow key={group.id} className="border-b">
                      {group.headers.map((header) => (
                        <TableHead
                          key={header.id}
                          scope="col"
                          aria-sort={sortKeyOf(header.column.id)
                            ? ariaSort(sortKeyOf(header.column.id)!, sortState)
                            : undefined}
                          className={cn(
                            GRID_HEAD_CELL,
                            cellClass(header.column.id),
                            byId.get(header.column.id)?.headerClassName,
                          )}
                        >
                          {header.isPlaceholder
                            ? null
                            : headerOf(header.column.id) ?? <table.FlexRender header={header} />}
                        </TableHead>
                      ))}
                    </TableRow>
                  ))}
                </TableHeader>
                <TableBody className={cn(refreshing && "opacity-70 transition-opacity")}>
                  {initialLoading
                    ? Array.from(
                      { length: Math.min(list.limit, 8) },
                      (_, i) => (
                        <TableRow key={i} className="grid-row border-b last:border-0">
                          {Array.from({ length: colCount }, (_, j) => (
                            <TableCell
                              key={j}
                              className={cn("h-12 px-4", j === colCount - 1 && "grid-sticky-end")}
                            >
                              <Skeleton className="h-4 w-full max-w-40" />
                            </TableCell>
                          ))}
                        </TableRow>
                      ),
                    )
                    : failedEmpty
                    ? (
                      <TableRow>
                        <TableCell colSpan={colCount} className="px-4 py-14">
                          <div className="flex flex-col items-center gap-3 text-center" role="alert">
                            <TriangleAlert className="size-8 text-destructive" aria-hidden="true" />
                            <div className="flex flex-col gap-1">
                              <p className="font-medium">The list could not be loaded.</p>
                              <p className="text-muted-foreground">{query.error?.message}</p>
                            </div>
                            <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
                              <RotateCw /> Retry
                            </Button>
                          </div>
                        </TableCell>
                      </TableRow>
                    )
                    : rows.length === 0
                    ? (
                      <TableRow>
                        <TableCell colSpan={colCount} className="px-4 py-14">
                          <div className="flex flex-col items-center gap-2 text-muted-foreground">
                            <Inbox className="size-8" aria-hidden="true" />
                            <p className="font-medium">{emptyText}</p>
                            {list.hasActiveFilters
                              ? (
                                <>
                                  <p>No rows match the current search and filters.</p>
                                  <Button
                                    variant="outline"
                                    size="sm"
                                    className="mt-1"
                                    onClick={list.resetFilters}
                                  >
                                    <FilterX /> Clear filters
                                  </Button>
                                </>
                              )
                              : null}
                          </div>
                        </TableCell>
                      </TableRow>
                    )
                    : rows.map((row) => {
                      const warn = warnRow?.(row.original) || false;
                      const reason = typeof warn === "string" ? warn : null;
                      return (
                        <TableRow
                          key={row.id}
                          data-row-id={row.id}
                          data-warning={warn ? true : undefined}
                          title={reason ? capitalise(reason) : undefined}
                          aria-describedby={reason ? `${legendId}-${warnReasons.indexOf(reason)}` : undefined}
                          aria-selected={selectable ? row.getIsSelected() : undefined}
                          className={cn(
                            GRID_ROW,
                            warn && "text-warning-foreground",
                          )}
                        >
                          {row.getAllCells().map((cell) => (
                            <TableCell
                              key={cell.id}
                              className={cn(
                                GRID_CELL,
                                "whitespace-nowrap px-4 align-middle",
                                cellClass(cell.column.id),
                                byId.get(cell.column.id)?.className,
                              )}
                            >
                              <table.FlexRender cell={cell} />
                            </TableCell>
                          ))}
                        </TableRow>
                      );
                    })}
                </TableBody>
                {totals && rows.length
                  ? <TotalsRow ids={tableColumns.map((c) => c.id!)} totals={totals} cellClass={cellClass} />
                  : null}
              </Table>
            </div>
            {query.isError && list.rows
              ? (
                <div
                  role="alert"
                  className="flex items-center justify-between gap-3 border-t bg-destructive/5 px-4 py-2 text-sm text-destructive"
                >
                  {/* the list's calls are quiet: this line is where their failure is told */}
                  <span>
                    The latest page could not be loaded; the rows shown are from before.{" "}
                    <span className="text-destructive/80">{query.error?.message}</span>
                  </span>
                  <Button variant="ghost" size="sm" onClick={() => void query.refetch()}>
                    <RotateCw /> Retry
                  </Button>
                </div>
              )
              : null}
          </div>

          {warnReasons.length ? <WarnLegend reasons={warnReasons} idBase={legendId} /> : null}

          {hasActions && !canEdit
            ? <span id={lockedId} className="sr-only">{READ_ONLY_CHANGE_REASON}</span>
            : null}

          {hidePagination ? null : <Pagination list={list} />}

          {selectable && selectionBar && Object.keys(rowSelection).length > 0
            ? (
              <SelectionRegion>
                {selectionBar([...selectedRows.current.values()], clearSelection)}
              </SelectionRegion>
            )
            : null}

          <ConfirmDialog
            open={!!pending}
            onOpenChange={(open) => {
              if (!open && !busy) setPending(null);
            }}
            title={confirm.title ?? MSG.areYouSure}
            description={confirm.description}
            cancelLabel={confirm.cancelLabel}
            confirmLabel={confirm.confirmLabel}
            destructive={pending?.action.destructive ?? true}
            busy={busy}
            onConfirm={async () => {
              if (!pending) return;
              setBusy(true);
              try {
                await pending.action.onSelect(pending.row);
              } catch {
                // the API client has shown the reason
              } finally {
                setBusy(false);
                setPending(null);
              }
            }}
          />
        </div>
      </ColumnChoiceContext.Provider>
    </SortContext.Provider>
  );
}
