/**
 * A header that sorts its list, server side: a column is sortable when its list declares a sort of
 * the column's key (`GridColumn.sort`, else its id) in shared/api, so the headers follow the one
 * declaration. A click sorts ascending, the next one descending, and so on; the sort lives in the
 * URL (`sort`, `dir`) with the page and the filters. The header cell carries `aria-sort`.
 */
import * as React from "react";
import { ArrowDown, ArrowUp, ChevronsUpDown } from "lucide-react";
import { cn } from "../../lib/utils.ts";
import type { GridColumn } from "./types.ts";

export type SortState = { sortBy?: string; sortDir?: "asc" | "desc" };

/**
 * The list's order and how to change it, for the header buttons: read from context, so a new
 * order re-renders the buttons in place (the focused one keeps the keyboard focus).
 */
export const SortContext = React.createContext<
  { state: SortState; onSort: (key: string, dir: "asc" | "desc") => void }
>({ state: {}, onSort: () => {} });

/** The declared sort a column orders by, or null when its list declares none for it. */
export function columnSort<T>(col: GridColumn<T>, sorts: readonly string[]): string | null {
  if (col.sort === false) return null;
  const key = col.sort ?? col.id;
  return sorts.includes(key) ? key : null;
}

/** The `aria-sort` of a sortable column's header. */
export function ariaSort(key: string, state: SortState): "ascending" | "descending" | "none" {
  if (state.sortBy !== key) return "none";
  return state.sortDir === "desc" ? "descending" : "ascending";
}

/** The order a click on the header asks for: ascending first, then the other way each time. */
export function nextSort(key: string, state: SortState): "asc" | "desc" {
  return state.sortBy === key && (state.sortDir ?? "asc") === "asc" ? "desc" : "asc";
}

export function SortButton(
  { label, sortKey, align }: { label: React.ReactNode; sortKey: string; align?: "left" | "right" | "center" },
) {
  const { state, onSort } = React.useContext(SortContext);
  const current = ariaSort(sortKey, state);
  const Icon = current === "ascending" ? ArrowUp : current === "descending" ? ArrowDown : ChevronsUpDown;
  return (
    <button
      type="button"
      data-sort-key={sortKey}
      onClick={() => onSort(sortKey, nextSort(sortKey, state))}
      className={cn(
        "-mx-1.5 inline-flex items-center gap-1 rounded-sm px-1.5 py-1 uppercase tracking-wide hover:bg-foreground/5 hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        current !== "none" && "text-foreground",
        align === "right" && "flex-row-reverse",
      )}
    >
      {label}
      <Icon className={cn("size-3.5 shrink-0", current === "none" && "opacity-40")} aria-hidden="true" />
    </button>
  );
}
