/**
 * Pieces of the supplier portal: the entry link with its one-tap copy, the order picker, and a list
 * shown as the shared grid on a laptop and as cards on a phone (one query, the same page).
 */
import * as React from "react";
import type { RowData } from "@tanstack/react-table";
import { Check, Copy, RotateCw } from "lucide-react";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { Pagination } from "../../components/data-grid/Pagination.tsx";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { DIR_PARAM, type ListController, SORT_PARAM } from "../../components/data-grid/useList.ts";
import { Button } from "../../components/ui/button.tsx";
import { Select } from "../../components/ui/select.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useCopyMark } from "../../lib/clipboard.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";
import { MSG } from "../../../../shared/messages.ts";

/** The entry link in code type and a copy button as large as a fingertip; the copied mark clears by itself. */
export function EntryLink({ url, label, className }: { url: string; label: string; className?: string }) {
  const { copied, copy } = useCopyMark();
  return (
    <div className={cn("flex min-w-0 items-center gap-1.5", className)}>
      <code
        className="min-w-0 flex-1 truncate rounded bg-muted px-1.5 py-1 text-xs"
        title={url}
        data-testid="entry-link"
      >
        {url}
      </code>
      <Button
        type="button"
        variant="outline"
        size="icon"
        className="size-9 shrink-0"
        aria-label={copied ? "Copied" : `Copy ${label}`}
        title={copied ? "Copied" : `Copy ${label}`}
        onClick={async () => {
          if (await copy(url)) {
            notify.success("Entry link copied");
          } else notify.error("Could not copy to the clipboard");
        }}
      >
        {copied ? <Check className="text-success" /> : <Copy />}
      </Button>
    </div>
  );
}

export type SortChoice = { value: string; label: string };

/** Orders the list by one of its declared sorts (URL `sort` and `dir`, so a view can be shared). */
export function SortSelect<T>({ list, choices }: { list: ListController<T>; choices: SortChoice[] }) {
  const current = list.body.sortBy ? `${list.body.sortBy}:${list.body.sortDir ?? "asc"}` : "";
  return (
    <Select
      ariaLabel="Sort by"
      className="h-9 w-full sm:w-52"
      placeholder="Newest first"
      value={current}
      onValueChange={(v) => {
        const [key, dir] = v.split(":");
        list.setParam(SORT_PARAM, key || null);
        list.setParam(DIR_PARAM, dir === "desc" ? "desc" : null);
      }}
      options={choices}
    />
  );
}

/**
 * The list as the shared grid from the `md` breakpoint up, and below it as one card per row with
 * the same paging: a phone never scrolls a table sideways.
 */
export function ResponsiveList<T extends RowData>({
  list,
  columns,
  card,
  caption,
  emptyText = MSG.noRows,
}: {
  list: ListController<T>;
  columns: GridColumn<T>[];
  card: (row: T) => React.ReactNode;
  caption: string;
  emptyText?: string;
}) {
  const rows = list.rows;
  return (
    <>
      <div className="hidden md:block" data-testid="portal-grid">
        <DataGrid list={list} columns={columns} caption={caption} emptyText={emptyText} />
      </div>
      <div className="flex flex-col gap-3 md:hidden" data-testid="portal-cards">
        {list.query.isError && !rows
          ? (
            <div
              className="flex flex-col items-center gap-2 rounded-xl border bg-card p-6 text-sm"
              role="alert"
            >
              <p>Could not load the list.</p>
              <Button variant="outline" size="sm" onClick={() => void list.query.refetch()}>
                <RotateCw /> Retry
              </Button>
            </div>
          )
          : !rows
          ? Array.from({ length: 3 }, (_, i) => <Skeleton key={i} className="h-40 w-full rounded-xl" />)
          : rows.length === 0
          ? (
            <p className="rounded-xl border bg-card p-6 text-center text-sm text-muted-foreground">
              {emptyText}
            </p>
          )
          : (
            <ul className="flex flex-col gap-3" aria-label={caption}>
              {rows.map((r) => (
                <li
                  key={list.decl.rowId(r)}
                  className="rounded-xl border bg-card p-4 shadow-xs"
                  data-testid="portal-card"
                >
                  {card(r)}
                </li>
              ))}
            </ul>
          )}
        {rows?.length ? <Pagination list={list} /> : null}
      </div>
    </>
  );
}

/** A figure of a card: a small label over the value. */
export function Figure(
  { label, value, className }: { label: string; value: React.ReactNode; className?: string },
) {
  return (
    <div className={cn("flex flex-col", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
