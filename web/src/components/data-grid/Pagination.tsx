import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { Button } from "../ui/button.tsx";
import { Select } from "../ui/select.tsx";
import { formatCount } from "../../lib/format.ts";
import type { ListController } from "./useList.ts";

/** Rows per page (5/10/20), the range shown and page buttons. */
export function Pagination<T>({ list }: { list: ListController<T> }) {
  const { total, pageNo, limit, metadata, totalIsLowerBound } = list;
  const pages = Math.max(1, Math.ceil(total / limit));
  // while only a lower bound is known there are more pages than counted, and no known last one
  const more = totalIsLowerBound;
  // the range describes the rows on screen (the previous page stays shown while the next loads)
  const shown = list.rows?.length ?? 0;
  const from = metadata && shown ? (metadata.pageNo - 1) * metadata.limit + 1 : 0;
  const to = from ? from + shown - 1 : 0;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 px-1 text-sm text-muted-foreground">
      <div className="flex items-center gap-2">
        <span id="rows-per-page">Rows per page</span>
        <Select
          ariaLabel="Rows per page"
          className="h-8 w-20"
          value={String(limit)}
          onValueChange={(val) => list.setPageSize(Number(val))}
          options={list.pageSizes.map((n) => ({ value: String(n), label: String(n) }))}
        />
      </div>
      <div className="flex items-center gap-3">
        <span
          aria-live="polite"
          data-testid="grid-range"
          title={more ? "Counting all matching rows…" : undefined}
        >
          {formatCount(from)}–{formatCount(to)} of {formatCount(total)}
          {more ? "+" : ""}
        </span>
        <div className="flex items-center gap-1">
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="First page"
            disabled={pageNo <= 1}
            onClick={() => list.setPage(1)}
          >
            <ChevronsLeft />
          </Button>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Previous page"
            disabled={pageNo <= 1}
            onClick={() => list.setPage(pageNo - 1)}
          >
            <ChevronLeft />
          </Button>
          <span className="min-w-20 text-center tabular-nums">
            Page {formatCount(more ? pageNo : Math.min(pageNo, pages))} of {formatCount(pages)}
            {more ? "+" : ""}
          </span>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Next page"
            disabled={!more && pageNo >= pages}
            onClick={() => list.setPage(pageNo + 1)}
          >
            <ChevronRight />
          </Button>
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Last page"
            title={more ? "Available once every matching row is counted" : undefined}
            disabled={more || pageNo >= pages}
            onClick={() => list.setPage(pages)}
          >
            <ChevronsRight />
          </Button>
        </div>
      </div>
    </div>
  );
}
