/**
 * /admin/support/api-reference (APIMANAGER, SUPERADMIN): the OpenAPI document of every /api/v1
 * call, generated on the server from the contracts, shown by area: method, path, roles, path and
 * query parameters, and the body's fields. The raw document is at /api/v1/openapi.json for tools.
 */
import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { ChevronRight } from "lucide-react";
import { apiReferenceCall } from "../../../../shared/api/ops.ts";
import { api, API_BASE, callKey } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { fieldsOf, groupByArea, matches, type OperationRow, typeOf } from "./reference.ts";

const METHOD_TONE: Record<string, BadgeTone> = { GET: "blue", POST: "green", PUT: "amber", DELETE: "red" };

export default function ApiReferencePage() {
  const [search, setSearch] = React.useState("");
  const doc = useQuery({
    queryKey: callKey(apiReferenceCall),
    staleTime: Infinity,
    queryFn: async ({ signal }) => (await api(apiReferenceCall, {}, { signal })).result,
  });
  const groups = React.useMemo(() => (doc.data ? groupByArea(doc.data) : []), [doc.data]);
  const shown = groups.map((g) => ({ ...g, operations: g.operations.filter((r) => matches(r, search)) }))
    .filter((g) => g.operations.length);
  const total = groups.reduce((n, g) => n + g.operations.length, 0);

  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every call of the Samplex API{doc.data ? ` (version ${doc.data.info.version})` : ""}, generated
            from the same schemas that check the requests. Send the token of <code>POST /admin/login</code> as
            {" "}
            <code>Authorization: Bearer …</code>. Tools can read the OpenAPI 3.1 document at{" "}
            <a className="underline" href={`${API_BASE}/openapi.json`} target="_blank" rel="noreferrer">
              {API_BASE}/openapi.json
            </a>.
          </>
        }
      />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search path, name or role"
          aria-label="Search the calls"
          className="max-w-sm"
          maxLength={100}
        />
        {doc.data
          ? (
            <span className="text-sm text-muted-foreground" data-testid="call-count">
              {search ? `${shown.reduce((n, g) => n + g.operations.length, 0)} of ` : ""}
              {total} calls
            </span>
          )
          : null}
      </div>
      {doc.isPending ? <Skeleton className="h-64 w-full" /> : null}
      {doc.isError ? <p className="text-destructive">The API reference could not be loaded.</p> : null}
      <div className="flex flex-col gap-6">
        {shown.map((g) => (
          <section key={g.area} aria-labelledby={`area-${g.area}`}>
            <h2 id={`area-${g.area}`} className="mb-2 text-lg font-semibold">
              {g.area}{" "}
              <span className="text-sm font-normal text-muted-foreground">({g.operations.length})</span>
            </h2>
            <Card>
              <CardContent className="divide-y p-0">
                {g.operations.map((row) => <Operation key={`${row.method} ${row.path}`} row={row} />)}
              </CardContent>
            </Card>
          </section>
        ))}
        {doc.data && !shown.length
          ? <p className="text-muted-foreground">No call matches “{search}”.</p>
          : null}
      </div>
    </>
  );
}

function Operation({ row }: { row: OperationRow }) {
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
            {op["x-roles"].length
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
