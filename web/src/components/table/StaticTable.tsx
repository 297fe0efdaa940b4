/**
 * A small table of rows already at hand (a dialog's figures, a page's short list): no paging, sorting
 * or selection (the data grid does those). Columns are declared once: header, cell, alignment and
 * classes; the rows are drawn from them, or the empty text in one row across the table.
 *
 *     <StaticTable caption="Outcomes per supplier" rows={stats} rowKey={(s) => s.supplierId} columns={[
 *       { header: "Supplier", cell: (s) => s.supplierName, className: "font-medium" },
 *       { header: "Completes", cell: (s) => formatCount(s.complete), align: "right", className: "tabular-nums" },
 *     ]} />
 *
 * The look (the classes of each part) is the kit's by default, the look of a dialog's or tab's table
 * (header band, row lines); `TABLE_LOOKS` holds the others the screens use.
 */
import * as React from "react";
import { useSideOverflow } from "../data-grid/useSideOverflow.ts";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "../ui/table.tsx";

export type StaticColumn<T> = {
  header: React.ReactNode;
  cell: (row: T, index: number) => React.ReactNode;
  align?: "left" | "right";
  /** Figures: right-aligned, in tabular digits. */
  numeric?: boolean;
  /** Classes of the column's cells (after the look's). */
  className?: string;
  /** Classes of the column's header (after the look's). */
  headerClassName?: string;
};

/** The classes of a table's parts; a part without classes gets none. */
export type TableLook = {
  /** A box around the table (scrolling, border); no box without it. */
  wrapper?: string;
  table?: string;
  caption?: string;
  header?: string;
  headRow?: string;
  head?: string;
  row?: string;
  cell?: string;
  /** The one cell of the empty text. */
  empty?: string;
};

/** The looks the screens' tables have. */
export const TABLE_LOOKS = {
  /** The kit's: a bordered box, a header band in small capitals, lines between rows. */
  kit: {
    wrapper: "relative overflow-x-auto rounded-lg border",
    table: "w-full border-collapse text-sm",
    caption: "sr-only",
    header: "bg-muted/60",
    headRow: "border-b text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground",
    head: "h-9 whitespace-nowrap px-3",
    row: "border-b last:border-0",
    cell: "px-3 py-2",
  },
  /** A page's or card's list: muted header, a line above each row, roomy cells. */
  lined: {
    table: "w-full text-left text-sm",
    header: "text-muted-foreground",
    head: "px-4 py-2 font-medium",
    row: "border-t",
    cell: "px-4 py-2",
  },
  /** A dialog's reference list (provider data): plain header, a line above each row. */
  compact: {
    table: "w-full text-sm",
    headRow: "text-left",
    head: "p-2",
    row: "border-t",
    cell: "p-2",
  },
  /** A dialog's or card's figures: small-capital header, a line under each row but the last. */
  figures: {
    table: "w-full text-sm",
    headRow: "border-b",
    head: "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground",
    row: "border-b last:border-0",
    cell: "px-3 py-2",
  },
} satisfies Record<string, TableLook>;

const right = (c: StaticColumn<never>) => c.align === "right" || (c.numeric && c.align !== "left");

const join = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(" ") || undefined;

export function StaticTable<T>({
  columns,
  rows,
  rowKey,
  caption,
  empty,
  look = TABLE_LOOKS.kit,
  rowClassName,
  rowTestId,
  footer,
  ...rest
}: {
  columns: StaticColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => React.Key;
  /** What the table holds, for screen readers (shown only if the look shows captions). */
  caption?: string;
  /** Shown in one row across the table when there are no rows; no row at all without it. */
  empty?: React.ReactNode;
  look?: TableLook;
  /** More classes of each row (after the look's). */
  rowClassName?: string;
  /** A `data-testid` on each row. */
  rowTestId?: string;
  /** Rows under the body (a totals `<tfoot>`). */
  footer?: React.ReactNode;
} & Omit<React.ComponentProps<"table">, "children">) {
  const table = (
    <Table className={look.table} {...rest}>
      {caption ? <TableCaption className={look.caption}>{caption}</TableCaption> : null}
      <TableHeader className={look.header}>
        <TableRow className={look.headRow}>
          {columns.map((c, i) => (
            <TableHead
              key={i}
              className={join(look.head, right(c) && "text-right", c.headerClassName)}
            >
              {c.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 && empty !== undefined
          ? (
            <TableRow>
              <TableCell colSpan={columns.length} className={look.empty}>{empty}</TableCell>
            </TableRow>
          )
          : rows.map((row, r) => (
            <TableRow key={rowKey(row, r)} className={join(look.row, rowClassName)} data-testid={rowTestId}>
              {columns.map((c, i) => (
                <TableCell
                  key={i}
                  className={join(
                    look.cell,
                    right(c) && "text-right",
                    c.numeric && "tabular-nums",
                    c.className,
                  )}
                >
                  {c.cell(row, r)}
                </TableCell>
              ))}
            </TableRow>
          ))}
      </TableBody>
      {footer}
    </Table>
  );
  return look.wrapper ? <ScrollBox className={look.wrapper} caption={caption}>{table}</ScrollBox> : table;
}

/** The look's box: when it scrolls sideways (a phone), it can be scrolled from the keyboard too. */
function ScrollBox(
  { className, caption, children }: { className: string; caption?: string; children: React.ReactNode },
) {
  const ref = React.useRef<HTMLDivElement>(null);
  const overflow = useSideOverflow(ref);
  const scrolls = overflow.left || overflow.right;
  return (
    <div
      ref={ref}
      className={className}
      tabIndex={scrolls ? 0 : undefined}
      role={scrolls ? "region" : undefined}
      aria-label={scrolls ? `${caption ?? "Table"}, scrolls sideways` : undefined}
    >
      {children}
    </div>
  );
}
