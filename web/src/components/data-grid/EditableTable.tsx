/**
 * The grid kit's table for small sets a screen edits in place (a child project's suppliers,
 * exclusions, quota sizes and pre-screen questions; the library's qualifications): no paging or
 * filters, the rows are what the screen holds. It has the DataGrid's look (same header band, row
 * lines, hover tint, sideways scroll with a keyboard-reachable box and a pinned actions column), and
 * its states: a loading skeleton, a failure with Retry, and 'No Rows' (or the screen's own words).
 * A screen declares columns (header, cell, optional width and alignment, optional footer), the row
 * key and optional row actions; `highlightKey` brings a row into view with a brief highlight (a row
 * just added), `sortable` makes the rows reorderable (drag handle, keyboard, move buttons).
 */
import * as React from "react";
import { Inbox, RotateCw, TriangleAlert } from "lucide-react";
import { MSG } from "../../../../shared/messages.ts";
import { cn } from "../../lib/utils.ts";
import { Button } from "../ui/button.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { SortableList, type SortableRow } from "../sortable/SortableList.tsx";
import { useSideOverflow } from "./DataGrid.tsx";
import { GRID_CELL, GRID_HEAD_CELL, GRID_ROW } from "./styles.ts";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from "../ui/table.tsx";

export type TableColumn<T> = {
  id: string;
  header: React.ReactNode;
  /** The cell of a row (`index` is its position in the rows shown). */
  cell: (row: T, index: number) => React.ReactNode;
  /** The column's cell in the footer row; a footer row shows when any column has one. */
  footer?: React.ReactNode;
  /** Attributes of the footer cell (a test id, a state, a class). */
  footerProps?: React.TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, unknown>;
  /** A CSS width ("9rem", "40%"). */
  width?: string;
  align?: "left" | "right" | "center";
  className?: string;
  headerClassName?: string;
};

export type EditableTableProps<T> = {
  /** Names the table for screen readers (its caption). */
  caption: string;
  columns: TableColumn<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  /** Rows are on their way: skeleton rows under the header. */
  loading?: boolean;
  /** The rows could not be loaded: the reason and a Retry button. */
  error?: Error | null;
  onRetry?: () => void;
  /** What could not be loaded, in "The {what} could not be loaded." */
  what?: string;
  /** What an empty table says ('No Rows' by default), and what it offers below (an Add button). */
  emptyText?: string;
  emptyAction?: React.ReactNode;
  /** The buttons of a row, in a last column pinned to the right edge. */
  rowActions?: (row: T) => React.ReactNode;
  /** Extra attributes of a row (data-* hooks, a title). */
  rowProps?: (row: T) => React.HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
  /** A row shown as chosen (the one being edited). */
  selectedKey?: string | null;
  /** Bring this row into view with a brief highlight; change `highlightNonce` to do it again. */
  highlightKey?: string | null;
  highlightNonce?: number;
  sortable?: {
    onMove: (from: number, to: number) => void;
    itemLabel: (row: T, index: number) => string;
    disabled?: boolean;
  };
  /** Shorter rows (a table inside a card). */
  dense?: boolean;
  testId?: string;
  className?: string;
};

const HIGHLIGHT_MS = 2_000;
const HIGHLIGHT_TINT = "color-mix(in oklab, var(--primary) 16%, transparent)";

function alignClass(align: TableColumn<unknown>["align"]) {
  return align === "right" ? "text-right" : align === "center" ? "text-center" : undefined;
}

export function EditableTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading = false,
  error,
  onRetry,
  what,
  emptyText = MSG.noRows,
  emptyAction,
  rowActions,
  rowProps,
  selectedKey,
  highlightKey,
  highlightNonce = 0,
  sortable,
  dense = false,
  testId,
  className,
}: EditableTableProps<T>) {
  const scroller = React.useRef<HTMLDivElement>(null);
  const overflow = useSideOverflow(scroller);
  const [flash, setFlash] = React.useState<string | null>(null);
  const list = rows ?? [];
  const hasActions = !!rowActions;
  const colCount = columns.length + (hasActions ? 1 : 0) + (sortable ? 1 : 0);
  const hasFooter = columns.some((c) => c.footer !== undefined);
  const present = !!highlightKey && list.some((r) => rowKey(r) === highlightKey);

  // the highlighted row, once it is there: scrolled into view, tinted for a moment
  React.useEffect(() => {
    if (!highlightKey || !present) return;
    const row = scroller.current?.querySelector<HTMLElement>(
      `tr[data-row-key="${CSS.escape(highlightKey)}"]`,
    );
    row?.scrollIntoView({ behavior: "smooth", block: "center" });
    setFlash(highlightKey);
    const t = setTimeout(() => setFlash(null), HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [highlightKey, highlightNonce, present]);

  const cellPad = dense ? "h-10 py-1.5" : GRID_CELL;

  function renderCells(row: T, index: number, sort?: SortableRow) {
    return (
      <>
        {sort
          ? (
            <TableCell className={cn(cellPad, "w-10 px-2")}>
              {sort.handle}
            </TableCell>
          )
          : null}
        {columns.map((c) => (
          <TableCell
            key={c.id}
            className={cn(cellPad, "whitespace-nowrap px-4 align-middle", alignClass(c.align), c.className)}
          >
            {c.cell(row, index)}
          </TableCell>
        ))}
        {hasActions || sort
          ? (
            <TableCell className={cn(cellPad, "grid-sticky-end w-px px-2 text-right align-middle")}>
              <span className="flex items-center justify-end gap-1">
                {sort?.moveButtons}
                {rowActions?.(row)}
              </span>
            </TableCell>
          )
          : null}
      </>
    );
  }

  function rowAttrs(row: T) {
    const key = rowKey(row);
    const extra = rowProps?.(row) ?? {};
    const highlighted = flash === key;
    return {
      ...extra,
      "data-row-key": key,
      "data-highlight": highlighted || undefined,
      "aria-selected": selectedKey !== undefined ? selectedKey === key : undefined,
      style: highlighted
        ? { ...extra.style, "--row-tint": HIGHLIGHT_TINT } as React.CSSProperties
        : extra.style,
      className: cn(GRID_ROW, "duration-500", extra.className),
    };
  }

  let body: React.ReactNode;
  if (loading) {
    body = (
      <TableBody aria-busy="true">
        {Array.from({ length: 3 }, (_, i) => (
          <TableRow key={i} className="border-b last:border-0">
            {Array.from({ length: colCount }, (_, j) => (
              <TableCell key={j} className={cn(cellPad, "px-4")}>
                <Skeleton className="h-4 w-full max-w-40" />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    );
  } else if (error) {
    body = (
      <TableBody>
        <TableRow>
          <TableCell colSpan={colCount} className="px-4 py-12">
            <div className="flex flex-col items-center gap-3 text-center" role="alert">
              <TriangleAlert className="size-8 text-destructive" aria-hidden="true" />
              <div className="flex flex-col gap-1">
                <p className="font-medium">The {what ?? "list"} could not be loaded.</p>
                <p className="text-muted-foreground">{error.message}</p>
              </div>
              {onRetry
                ? (
                  <Button variant="outline" size="sm" onClick={onRetry}>
                    <RotateCw /> Retry
                  </Button>
                )
                : null}
            </div>
          </TableCell>
        </TableRow>
      </TableBody>
    );
  } else if (list.length === 0) {
    body = (
      <TableBody>
        <TableRow>
          <TableCell colSpan={colCount} className="px-4 py-12">
            <div className="flex flex-col items-center gap-2 text-center text-muted-foreground">
              <Inbox className="size-8" aria-hidden="true" />
              <p className="font-medium">{emptyText}</p>
              {emptyAction}
            </div>
          </TableCell>
        </TableRow>
      </TableBody>
    );
  } else if (sortable) {
    body = (
      <SortableList
        as="rows"
        items={list as T[]}
        getId={rowKey}
        itemLabel={sortable.itemLabel}
        onMove={sortable.onMove}
        disabled={sortable.disabled}
        ariaLabel={caption}
        itemProps={rowAttrs}
        renderItem={(row, sort) => renderCells(row, sort.index, sort)}
      />
    );
  } else {
    body = (
      <TableBody>
        {list.map((row, i) => (
          <TableRow key={rowKey(row)} {...rowAttrs(row)}>
            {renderCells(row, i)}
          </TableRow>
        ))}
      </TableBody>
    );
  }

  const scrolls = overflow.left || overflow.right;
  return (
    <div className={cn("relative overflow-hidden rounded-xl border bg-card shadow-xs", className)}>
      <div
        aria-hidden="true"
        className={cn(
          "pointer-events-none absolute inset-y-0 left-0 z-[2] w-10 bg-linear-to-r from-foreground/15 to-transparent transition-opacity",
          overflow.left ? "opacity-100" : "opacity-0",
        )}
      />
      {hasActions || sortable ? null : (
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
        // a box that scrolls sideways can be scrolled from the keyboard too
        tabIndex={scrolls ? 0 : undefined}
        role={scrolls ? "region" : undefined}
        aria-label={scrolls ? `${caption}, scrolls sideways` : undefined}
      >
        <Table
          className="w-full caption-bottom border-collapse text-sm"
          data-testid={testId}
          aria-busy={loading || undefined}
        >
          <TableCaption className="sr-only">{caption}</TableCaption>
          <TableHeader className="bg-muted/60">
            <TableRow className="border-b">
              {sortable
                ? (
                  <TableHead scope="col" className={cn(GRID_HEAD_CELL, "w-10 px-2")}>
                    <span className="sr-only">Order</span>
                  </TableHead>
                )
                : null}
              {columns.map((c) => (
                <TableHead
                  key={c.id}
                  scope="col"
                  style={c.width ? { width: c.width } : undefined}
                  className={cn(GRID_HEAD_CELL, alignClass(c.align), c.headerClassName)}
                >
                  {c.header}
                </TableHead>
              ))}
              {hasActions || sortable
                ? (
                  <TableHead scope="col" className={cn(GRID_HEAD_CELL, "grid-sticky-end w-px px-2")}>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                )
                : null}
            </TableRow>
          </TableHeader>
          {body}
          {hasFooter && !loading && !error && list.length
            ? (
              <TableFooter>
                <TableRow className="border-t bg-muted/30 font-medium">
                  {sortable ? <TableCell /> : null}
                  {columns.map((c) => (
                    <TableCell
                      key={c.id}
                      {...c.footerProps}
                      className={cn(
                        cellPad,
                        "whitespace-nowrap px-4 align-middle",
                        alignClass(c.align),
                        c.footerProps?.className,
                      )}
                    >
                      {c.footer}
                    </TableCell>
                  ))}
                  {hasActions || sortable ? <TableCell className="grid-sticky-end" /> : null}
                </TableRow>
              </TableFooter>
            )
            : null}
        </Table>
      </div>
    </div>
  );
}
