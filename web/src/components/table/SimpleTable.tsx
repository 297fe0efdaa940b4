import * as React from "react";
import { cn } from "../../lib/utils.ts";

/** A table of a dialog or tab: the kit's look (header band, row lines) for small, unpaged sets. */
export function SimpleTable({
  caption,
  head,
  children,
  className,
}: {
  caption: string;
  head: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("relative overflow-x-auto rounded-lg border", className)}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60">
          <tr className="border-b text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground [&>th]:h-9 [&>th]:whitespace-nowrap [&>th]:px-3">
            {head}
          </tr>
        </thead>
        <tbody className="[&>tr]:border-b [&>tr:last-child]:border-0 [&_td]:px-3 [&_td]:py-2">
          {children}
        </tbody>
      </table>
    </div>
  );
}
