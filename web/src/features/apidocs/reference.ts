/** The API reference as the page shows it: operations grouped by area, in the document's order. */
import type { ApiOperation, ApiReference, JsonSchemaObject } from "../../../../shared/api/ops.ts";

export type OperationRow = {
  method: string;
  path: string;
  op: ApiOperation;
};
export type AreaGroup = { area: string; operations: OperationRow[] };

/** The document's operations by their first tag, areas in the order of the document's tags. */
export function groupByArea(doc: ApiReference): AreaGroup[] {
  const groups = new Map<string, OperationRow[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const area = op.tags[0] ?? "Other";
      if (!groups.has(area)) groups.set(area, []);
      groups.get(area)!.push({ method: method.toUpperCase(), path, op });
    }
  }
  return [...groups].filter(([, rows]) => rows.length).map(([area, operations]) => ({ area, operations }));
}

/** Matches a row against a search: path, method, operation name, summary or a role. */
export function matches(row: OperationRow, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [row.path, row.method, row.op.operationId, row.op.summary, ...(row.op["x-roles"] ?? [])]
    .some((s) => s.toLowerCase().includes(q));
}

export type FieldLine = { name: string; type: string; required: boolean; notes: string };

/** A JSON Schema's type in a few words: `string`, `string | null`, `"a" | "b"`, `array of object`. */
export function typeOf(schema: JsonSchemaObject | undefined): string {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1) ?? "object";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as JsonSchemaObject[]).map(typeOf).join(" | ");
  }
  if (schema.type === "array") return `array of ${typeOf(schema.items as JsonSchemaObject | undefined)}`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return typeof schema.type === "string" ? schema.type : "any";
}

/** What limits a field: lengths, ranges, pattern, default. */
export function notesOf(schema: JsonSchemaObject): string {
  const parts: string[] = [];
  const s = (Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchemaObject[])[0] : schema) ?? schema;
  if (typeof s.minLength === "number" || typeof s.maxLength === "number") {
    parts.push(`length ${s.minLength ?? 0}–${s.maxLength ?? "∞"}`);
  }
  if (typeof s.minimum === "number" || typeof s.maximum === "number") {
    parts.push(`${s.minimum ?? "−∞"} to ${s.maximum ?? "∞"}`);
  }
  if (typeof s.maxItems === "number") parts.push(`at most ${s.maxItems} items`);
  if (typeof s.pattern === "string") parts.push(`pattern ${s.pattern}`);
  if (typeof s.format === "string") parts.push(s.format);
  if ("default" in schema) parts.push(`default ${JSON.stringify(schema.default)}`);
  if (typeof schema.description === "string") parts.push(schema.description);
  return parts.join("; ");
}

/** The top-level fields of an object schema (a body), one line each. */
export function fieldsOf(schema: JsonSchemaObject | undefined): FieldLine[] {
  if (!schema || typeof schema.properties !== "object" || !schema.properties) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
  return Object.entries(schema.properties as Record<string, JsonSchemaObject>).map(([name, s]) => ({
    name,
    type: typeOf(s),
    required: required.has(name),
    notes: notesOf(s),
  }));
}
