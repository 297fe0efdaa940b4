/** Small pieces the project screens share: copy buttons, link lists, figures, empty and error states. */
import * as React from "react";
import { Check, Copy, Inbox, RotateCw, TriangleAlert } from "lucide-react";
import { MSG } from "../../../../shared/messages.ts";
import { copyText } from "../../lib/clipboard.ts";
import { notify } from "../../lib/notify.ts";
import { TIMING } from "../../lib/timing.ts";
import { cn } from "../../lib/utils.ts";
import { Button } from "../../components/ui/button.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import type { ReturnLink } from "./projects.ts";

/** Copies `text`; the check mark shows for 1000 ms (part 1, section 9). */
export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const [copied, setCopied] = React.useState(false);
  React.useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), TIMING.copiedIndicatorMs);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon-sm"
      className={className}
      aria-label={copied ? "Copied" : `Copy ${label}`}
      title={copied ? "Copied" : `Copy ${label}`}
      onClick={async () => {
        if (await copyText(text)) setCopied(true);
        else notify.error("Could not copy to the clipboard");
      }}
    >
      {copied ? <Check className="text-success" /> : <Copy />}
    </Button>
  );
}

/** A label and a URL in code type with a copy button, one per line. */
export function LinkList({ links, className }: { links: ReturnLink[]; className?: string }) {
  return (
    <ul className={cn("flex flex-col gap-2", className)}>
      {links.map((l) => (
        <li key={l.label} className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <p className="text-xs font-medium text-muted-foreground">{l.label}</p>
            <code className="block break-all rounded bg-muted px-1.5 py-1 text-xs">{l.url}</code>
          </div>
          <CopyButton text={l.url} label={`${l.label} link`} className="mt-4" />
        </li>
      ))}
    </ul>
  );
}

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

/** A percent for figures, or a dash before there is anything to divide. */
export function pct(n: number | null): string {
  return n === null ? "–" : `${n}%`;
}

/** A dialog shell for read-only views: title, description and a Close button. */
export function ViewDialog({
  open,
  onClose,
  title,
  description,
  className,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: React.ReactNode;
  description?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className={className ?? "max-w-2xl"}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description
            ? <DialogDescription>{description}</DialogDescription>
            : <DialogDescription className="sr-only">Details of the project</DialogDescription>}
        </DialogHeader>
        <div className="max-h-[65vh] overflow-y-auto">{children}</div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** "P00012 · Brand tracker": how a dialog names its project. */
export const subtitle = (p: { projectCode: string; projectName: string }) =>
  `${p.projectCode} · ${p.projectName}`;
