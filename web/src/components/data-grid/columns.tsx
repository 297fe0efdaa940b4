/** Column helpers of the master-data grids: counts and money, right-aligned, with wrapping headers. */
import type { ReactNode } from "react";
import type { GridColumn } from "./types.ts";
import { formatCount, formatMoney } from "../../lib/format.ts";

const HEAD = "whitespace-normal leading-tight min-w-16";

export function countColumn<T>(id: string, header: ReactNode, value: (row: T) => number): GridColumn<T> {
  return {
    id,
    header,
    align: "right",
    headerClassName: HEAD,
    className: "tabular-nums",
    cell: (row) => formatCount(value(row)),
  };
}

export function moneyColumn<T>(id: string, header: ReactNode, value: (row: T) => number): GridColumn<T> {
  return {
    id,
    header,
    align: "right",
    headerClassName: HEAD,
    className: "tabular-nums whitespace-nowrap",
    cell: (row) => formatMoney(value(row)),
  };
}
