/**
 * An OpenAPI document as a page shows it: a search over the calls, the calls grouped by area, each
 * opening onto its description, roles, parameters, body fields and curl example. The back-office
 * reference (Support > API reference) and the supplier portal's API page (the supply API) both
 * render their document with it.
 */
import * as React from "react";
import { ChevronRight } from "lucide-react";
import type { ApiReference } from "../../../../shared/api/ops.ts";
import { cn } from "../../lib/utils.ts";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { fieldsOf, groupByArea, matches, type OperationRow, typeOf } from "./reference.ts";

const METHOD_TONE: Record<string, BadgeTone> = { GET: "blue", POST: "green", PUT: "amber", DELETE: "red" };

export type ReferenceViewProps = {
  doc: ApiReference | undefined;
  isPending: boolean;
  isError: boolean;
  /** What the search box says it searches. */
  searchLabel?: string;
  /** The origin curl examples name (`$SAMPLEX` in the document); the page's own by default. */
  origin?: string;
};

export function ReferenceView(
  { doc, isPending, isError, searchLabel = "Search path, name or role", origin = location.origin }:
    ReferenceViewProps,
) {
  const [search, setSearch] = React.useState("");
  const groups = React.useMemo(() => (doc ? groupByArea(doc) : []), [doc]);
  const shown = groups.map((g) => ({ ...g, operations: g.operations.filter((r) => matches(r, search)) }))
    .filter((g) => g.operations.length);
  const total = groups.reduce((n, g) => n + g.operations.length, 0);
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={searchLabel}
          aria-label="Search the calls"
          className="max-w-sm"
          maxLength={100}
        />
        {doc
          ? (
            <span className="text-sm text-muted-foreground" data-testid="call-count">
              {search ? `${shown.reduce((n, g) => n + g.operations.length, 0)} of ` : ""}
              {total} calls
            </span>
          )
          : null}
      </div>
      {isPending ? <Skeleton className="h-64 w-full" /> : null}
      {isError ? <p className="text-destructive">The API reference could not be loaded.</p> : null}
      <div className="flex flex-col gap-6">
        {shown.map((g) => (
          <section key={g.area} aria-labelledby={`area-${g.area}`}>
            <h2 id={`area-${g.area}`} className="mb-2 text-lg font-semibold">
              {g.area}{" "}
              <span className="text-sm font-normal text-muted-foreground">({g.operations.length})</span>
            </h2>
            <Card>
              <CardContent className="divide-y p-0">
                {g.operations.map((row) => (
                  <Operation key={`${row.method} ${row.path}`} row={row} origin={origin} />
                ))}
              </CardContent>
            </Card>
          </section>
        ))}
        {doc && !shown.length ? <p className="text-muted-foreground">No call matches “{search}”.</p> : null}
      </div>
    </>
  );
}

function Operation({ row, origin }: { row: OperationRow; origin: string }) {
  const [open, setOpen] = React.useState(false);
  const { op } = row;
  const body = op.requestBody?.content["application/json"].schema;
  const fields = fieldsOf(body);
  const params = op.parameters ?? [];
  const id = `op-${op.operationId}`;
  return (
    <div data-testid="api-operation">
      <button
        type="button"
        className="flex w-full cursor-pointer items-center gap-3 px-4 py-2.5 text-left hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <ChevronRight
          className={cn("size-4 shrink-0 transition-transform", open && "rotate-90")}
          aria-hidden
        />
        <Badge tone={METHOD_TONE[row.method] ?? "neutral"} className="w-16 justify-center font-mono">
          {row.method}
        </Badge>
        <code className="min-w-0 flex-1 truncate text-sm">{row.path}</code>
        <span className="hidden text-sm text-muted-foreground md:inline">{op.summary}</span>
      </button>
      {open
        ? (
          <div id={id} className="flex flex-col gap-3 px-4 pb-4 pl-11 text-sm">
            <p>{op.description}</p>
            {op["x-roles"]?.length
              ? (
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="text-muted-foreground">Roles:</span>
                  {op["x-roles"].map((r) => <Badge key={r} tone="slate">{r}</Badge>)}
                </div>
              )
              : null}
            {params.length
              ? (
                <FieldTable
                  caption="Parameters"
                  rows={params.map((p) => ({
                    name: p.name,
                    type: `${typeOf(p.schema)} (${p.in})`,
                    required: p.required,
                    notes: typeof p.schema.description === "string" ? p.schema.description : "",
                  }))}
                />
              )
              : null}
            {body
              ? (fields.length
                ? <FieldTable caption="Body (JSON)" rows={fields} />
                : <p>Body (JSON): {typeOf(body)}</p>)
              : null}
            <p className="text-muted-foreground">
              Answers <code>{"{ result, message }"}</code>; a refusal is{" "}
              <code>{"{ message, errors? }"}</code>.
            </p>
            {(op["x-codeSamples"] ?? []).map((sample) => (
              <figure key={sample.lang} className="flex flex-col gap-1">
                <figcaption className="text-muted-foreground">
                  Example ({sample.label ?? sample.lang})
                </figcaption>
                <pre
                  className="overflow-x-auto rounded-md bg-muted px-3 py-2 font-mono text-xs"
                  data-testid="code-sample"
                >
                  {sample.source.replaceAll("$SAMPLEX", origin)}
                </pre>
              </figure>
            ))}
          </div>
        )
        : null}
    </div>
  );
}

/** A call's fields: the caption is the table's visible title band. */
const FIELDS_LOOK: TableLook = {
  wrapper: "overflow-x-auto rounded-md border",
  table: "w-full text-left text-sm",
  caption: "bg-muted/50 px-3 py-1.5 text-left font-medium",
  header: "text-muted-foreground",
  head: "px-3 py-1.5 font-medium",
  row: "border-t",
  cell: "px-3 py-1.5",
};

function FieldTable(
  { caption, rows }: {
    caption: string;
    rows: { name: string; type: string; required: boolean; notes: string }[];
  },
) {
  return (
    <StaticTable
      look={FIELDS_LOOK}
      caption={caption}
      rows={rows}
      rowKey={(r) => r.name}
      columns={[
        { header: "Field", cell: (r) => r.name, className: "font-mono" },
        { header: "Type", cell: (r) => r.type, className: "font-mono text-xs" },
        { header: "Required", cell: (r) => r.required ? "yes" : "no" },
        { header: "Notes", cell: (r) => r.notes, className: "text-muted-foreground" },
      ]}
    />
  );
}
