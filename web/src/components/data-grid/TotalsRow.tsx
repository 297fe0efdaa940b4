/**
 * A grid's totals row, under its rows: one cell per shown column, the totals the screen gives by
 * column id (from the server, over every matching row, not the page), blank elsewhere.
 */
import type * as React from "react";
import { cn } from "../../lib/utils.ts";
import { GRID_CELL } from "./styles.ts";

export type GridTotals = Partial<Record<string, React.ReactNode>>;

export function TotalsRow(
  { ids, totals, cellClass }: { ids: string[]; totals: GridTotals; cellClass: (id: string) => string },
) {
  return (
    <tfoot className="border-t-2 bg-muted/60 font-semibold" data-testid="grid-totals">
      <tr>
        {ids.map((id) => (
          <td
            key={id}
            data-column={id}
            className={cn(GRID_CELL, "whitespace-nowrap px-4 align-middle", cellClass(id))}
          >
            {totals[id] ?? null}
          </td>
        ))}
      </tr>
    </tfoot>
  );
}
