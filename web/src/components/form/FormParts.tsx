/**
 * Pieces every master-data form page shares, in the look of the Users form: the back link, the
 * loading, not-found and failure states of a record, titled sections, the action bar and a read-only
 * key with a copy button.
 */
import * as React from "react";
import { Link } from "react-router";
import type { UseQueryResult } from "@tanstack/react-query";
import { ArrowLeft, Check, Copy, SearchX } from "lucide-react";
import { ApiError } from "../../lib/api.ts";
import { useCopyMark } from "../../lib/clipboard.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";
import { SubmitButton } from "./fields.tsx";
import { Button, buttonVariants } from "../ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card.tsx";
import { Input } from "../ui/input.tsx";
import { Skeleton } from "../ui/skeleton.tsx";

export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
    >
      <ArrowLeft className="size-4" /> {children}
    </Link>
  );
}

/** A titled card of fields, two columns from the small breakpoint up. */
export function FormSection({
  title,
  description,
  children,
  className,
  contentClassName,
  aside,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  contentClassName?: string;
  /** Rendered at the right of the title (a switch that opens the section, say). */
  aside?: React.ReactNode;
}) {
  const id = React.useId();
  return (
    <Card className={className} role="group" aria-labelledby={id}>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle id={id}>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        {aside}
      </CardHeader>
      <CardContent className={cn("grid gap-5 sm:grid-cols-2", contentClassName)}>{children}</CardContent>
    </Card>
  );
}

/** Cancel and submit, kept in view at the bottom of long forms. */
export function FormActions({ cancelTo, submitLabel }: { cancelTo: string; submitLabel: string }) {
  return (
    <div className="sticky bottom-0 z-10 -mx-1 flex justify-end gap-2 border-t bg-background/95 px-1 py-4 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <Link to={cancelTo} className={buttonVariants({ variant: "outline" })}>Cancel</Link>
      <SubmitButton>{submitLabel}</SubmitButton>
    </div>
  );
}

export function FormSkeleton({ label, className }: { label: string; className?: string }) {
  return (
    <div className={cn("flex flex-col gap-5", className)} aria-busy="true" aria-label={label}>
      {[6, 4].map((n, s) => (
        <Card key={s} className="p-5">
          <Skeleton className="mb-5 h-5 w-40" />
          <div className="grid gap-5 sm:grid-cols-2">
            {Array.from({ length: n }, (_, i) => (
              <div key={i} className="flex flex-col gap-2">
                <Skeleton className="h-4 w-24" />
                <Skeleton className="h-9 w-full" />
              </div>
            ))}
          </div>
        </Card>
      ))}
    </div>
  );
}

/** Whether a record's load failed because it does not exist (any more): the API's 404. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/**
 * The `quiet` option of a record's load: a 404 is not raised as a notice, since the page shows it
 * (`RecordNotFound`); other failures still are.
 */
export const quietNotFound = (err: ApiError) => isNotFound(err);

/**
 * The header description of a record page: the record once loaded, `loading` while it loads, and
 * nothing once the load has failed (the page body says why).
 */
export function recordDescription<T>(
  query: UseQueryResult<T>,
  loading: React.ReactNode,
  describe: (record: T) => React.ReactNode,
): React.ReactNode {
  if (query.data !== undefined) return describe(query.data);
  return query.isPending ? loading : undefined;
}

/** Where a record page leads back to: the list's address and name ("Clients"). */
export type ListLink = { to: string; label: string };

/** A record that does not exist (a wrong or old link, or deleted): say so and lead back to its list. */
export function RecordNotFound(
  { what, list, className }: { what: string; list: ListLink; className?: string },
) {
  const id = React.useId();
  return (
    <Card className={cn("flex flex-col items-start gap-1 p-6", className)} aria-labelledby={id} role="region">
      <SearchX className="mb-2 size-6 text-muted-foreground" aria-hidden="true" />
      <p id={id} className="font-medium">This {what} does not exist or was deleted.</p>
      <p className="text-muted-foreground">The link may be wrong or out of date.</p>
      <Link to={list.to} className={buttonVariants({ variant: "outline", className: "mt-4" })}>
        <ArrowLeft /> Back to {list.label}
      </Link>
    </Card>
  );
}

export function LoadFailed(
  { what, error, onRetry, className }: {
    what: string;
    error: Error;
    onRetry: () => void;
    className?: string;
  },
) {
  return (
    <Card className={cn("p-6", className)} role="alert">
      <p className="font-medium">This {what} could not be loaded.</p>
      <p className="mt-1 text-muted-foreground">{error.message}</p>
      <Button className="mt-4" variant="outline" onClick={onRetry}>Retry</Button>
    </Card>
  );
}

/**
 * A record's load that went wrong: not found (404) leads back to the list, with no Retry since
 * asking again cannot help; any other failure (network, server) offers Retry.
 */
export function RecordLoadError(
  { what, error, list, onRetry, className }: {
    what: string;
    error: Error;
    list: ListLink;
    onRetry: () => void;
    className?: string;
  },
) {
  return isNotFound(error)
    ? <RecordNotFound what={what} list={list} className={className} />
    : <LoadFailed what={what} error={error} onRetry={onRetry} className={className} />;
}

/**
 * The record an edit form opens with: a skeleton while it loads, a not-found state with a way back
 * to `list` if it does not exist, a retryable error if it cannot be loaded, else the form. `what`
 * names it ("Loading client", "This client does not exist or was deleted."). Load it with
 * `{ quiet: quietNotFound }` so a 404 is not also raised as a notice.
 */
export function LoadedRecord<T>({ query, what, list, loadingLabel, skeleton, className, children }: {
  query: UseQueryResult<T>;
  what: string;
  list: ListLink;
  loadingLabel?: string;
  /** A skeleton shaped like the form, instead of the generic two sections. */
  skeleton?: React.ReactNode;
  className?: string;
  children: (record: T) => React.ReactNode;
}) {
  if (query.isPending) {
    return skeleton ?? <FormSkeleton label={loadingLabel ?? `Loading ${what}`} className={className} />;
  }
  if (query.isError) {
    return (
      <RecordLoadError
        what={what}
        error={query.error}
        list={list}
        onRetry={() => void query.refetch()}
        className={className}
      />
    );
  }
  return <>{children(query.data)}</>;
}

/** A read-only value (an API key) with a copy button; the copied mark clears after 1000 ms. */
export function CopyField({
  label,
  value,
  hint,
  className,
  resolve,
}: {
  label: string;
  value: string;
  hint?: React.ReactNode;
  className?: string;
  /** What the copy button copies when `value` is only shown masked (the whole key, fetched). */
  resolve?: () => Promise<string | null>;
}) {
  const id = React.useId();
  const { copied, copy } = useCopyMark();
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">{label}</label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          placeholder="Generated when saved"
          className="bg-muted/50 font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          size="icon"
          disabled={!value}
          aria-label={copied ? "Copied" : `Copy ${label}`}
          title={copied ? "Copied" : `Copy ${label}`}
          onClick={async () => {
            const text = resolve ? await resolve() : value;
            if (!text) return;
            if (!(await copy(text))) notify.error("Could not copy to the clipboard");
          }}
        >
          {copied ? <Check className="text-success" /> : <Copy />}
        </Button>
      </div>
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

/** A number cell: right-aligned, tabular figures. */
export function Num({ children }: { children: React.ReactNode }) {
  return <span className="tabular-nums">{children}</span>;
}
