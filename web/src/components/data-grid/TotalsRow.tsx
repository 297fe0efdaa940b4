/**
 * A grid's totals row, under its rows: one cell per shown column, the totals the screen gives by
 * column id (from the server, over every matching row, not the page), blank elsewhere.
 */
import type * as React from "react";
import { cn } from "../../lib/utils.ts";
import { GRID_CELL } from "./styles.ts";
import { TableCell, TableFooter, TableRow } from "../ui/table.tsx";

export type GridTotals = Partial<Record<string, React.ReactNode>>;

export function TotalsRow(
  { ids, totals, cellClass }: { ids: string[]; totals: GridTotals; cellClass: (id: string) => string },
) {
  return (
    <TableFooter className="border-t-2 bg-muted/60 font-semibold" data-testid="grid-totals">
      <TableRow>
        {ids.map((id) => (
          <TableCell
            key={id}
            data-column={id}
            className={cn(GRID_CELL, "whitespace-nowrap px-4 align-middle", cellClass(id))}
          >
            {totals[id] ?? null}
          </TableCell>
        ))}
      </TableRow>
    </TableFooter>
  );
}
