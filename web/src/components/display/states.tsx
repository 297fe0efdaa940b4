/** The states of a small data view (a dialog's or tab's table): loading rows, nothing yet, a failed load. */
import * as React from "react";
import { Inbox, RotateCw, TriangleAlert } from "lucide-react";
import { MSG } from "../../../../shared/messages.ts";
import { Button } from "../ui/button.tsx";
import { Skeleton } from "../ui/skeleton.tsx";

export function LoadingRows({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <div className="flex flex-col gap-2" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => <Skeleton key={i} className="h-9 w-full" />)}
    </div>
  );
}

export function EmptyState({ text = MSG.noRows, children }: { text?: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-muted-foreground">
      <Inbox className="size-7" aria-hidden="true" />
      <p className="font-medium">{text}</p>
      {children}
    </div>
  );
}

export function ErrorState({ error, onRetry, what }: { error: Error; onRetry: () => void; what: string }) {
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-8 text-center"
      role="alert"
    >
      <TriangleAlert className="size-7 text-destructive" aria-hidden="true" />
      <div>
        <p className="font-medium">The {what} could not be loaded.</p>
        <p className="text-muted-foreground">{error.message}</p>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw /> Retry
      </Button>
    </div>
  );
}
