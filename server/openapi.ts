/**
 * The API reference: an OpenAPI 3.1 document of every /api/v1 call declared by a contract
 * (shared/api/<area>.ts), generated from those contracts so it cannot drift: the path and method,
 * the path ids, the query and body schemas (the valibot schemas that validate the requests, turned
 * into JSON Schema by @valibot/to-json-schema), and the roles of the permission table in each
 * call's description, and each answer: the envelope `{ result, message }` with the result's schema
 * generated from the contract's TypeScript result type (server/openapi-results.json, written by
 * `deno task openapi`, a test fails while it is stale), or the file or event stream the call sends
 * (`media`), and the refusals `{ message, errors? }` that apply. Every call of the permission table
 * has a contract (a test keeps it so). Served at /api/v1/openapi.json and rendered in the app (Support > API reference).
 */
import { type JsonSchema, type OverrideSchemaContext, toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import type { AnyContract } from "../shared/api/contract.ts";
import type { ApiOperation, ApiReference, JsonSchemaObject } from "../shared/api/ops.ts";
import * as clients from "../shared/api/clients.ts";
import * as email from "../shared/api/email.ts";
import * as library from "../shared/api/library.ts";
import * as lookups from "../shared/api/lookups.ts";
import * as ops from "../shared/api/ops.ts";
import * as session from "../shared/api/session.ts";
import * as suppliers from "../shared/api/suppliers.ts";
import * as systemLog from "../shared/api/system-log.ts";
import * as users from "../shared/api/users.ts";
import * as projects from "../shared/api/projects.ts";
import * as projectParts from "../shared/api/project-parts.ts";
import * as supplierMaps from "../shared/api/supplier-maps.ts";
import * as projectReports from "../shared/api/project-reports.ts";
import * as dashboard from "../shared/api/dashboard.ts";
import * as routing from "../shared/api/routing.ts";
import * as support from "../shared/api/support.ts";
import * as reconcile from "../shared/api/reconcile.ts";
import * as accounts from "../shared/api/accounts.ts";
import * as providers from "../shared/api/providers.ts";
import * as reports from "../shared/api/reports.ts";
import * as portal from "../shared/api/portal.ts";
import * as supplierApiKeys from "../shared/api/supplier-api-keys.ts";
import * as supplierCallbacks from "../shared/api/supplier-callbacks.ts";
import { VERSION } from "./domain/ops/version.ts";
import results from "./openapi-results.json" with { type: "json" };

/**
 * The contract modules, by the area they are listed under. An area moved onto contracts adds its
 * module here (tests/api/openapi_test.ts fails while a contract-registered call is missing).
 */
export const CONTRACT_AREAS: Record<string, Record<string, unknown>> = {
  Session: session,
  Users: users,
  Clients: clients,
  Suppliers: suppliers,
  Library: library,
  Lookups: lookups,
  "E-mail": email,
  "System log": systemLog,
  Dashboard: dashboard,
  Routing: routing,
  Projects: projects,
  "Project tabs": projectParts,
  "Supplier maps": supplierMaps,
  "Project reports and e-mails": projectReports,
  Reconcile: reconcile,
  Accounts: accounts,
  "External providers": providers,
  Reports: reports,
  "Supplier API keys": supplierApiKeys,
  "Supplier callbacks": supplierCallbacks,
  "Supplier portal": portal,
  Support: support,
  Operations: ops,
};

function isContract(x: unknown): x is AnyContract {
  const c = x as AnyContract;
  return !!c && typeof c === "object" && typeof c.key === "string" && typeof c.method === "string" &&
    typeof c.path === "string" && Array.isArray(c.roles) && "result" in c;
}

export type DeclaredCall = { area: string; name: string; contract: AnyContract };

/** The contracts `areas`' modules export that `is` accepts, with area and export name; one per call. */
export function declaredIn<C extends { key: string }>(
  areas: Record<string, Record<string, unknown>>,
  is: (x: unknown) => x is C,
): { area: string; name: string; contract: C }[] {
  const seen = new Set<string>();
  const out: { area: string; name: string; contract: C }[] = [];
  for (const [area, mod] of Object.entries(areas)) {
    for (const [name, value] of Object.entries(mod)) {
      if (!is(value) || seen.has(value.key)) continue;
      seen.add(value.key);
      out.push({ area, name, contract: value });
    }
  }
  return out;
}

/** Every declared call, with its area and export name; one entry per call. */
export const declaredCalls = (): DeclaredCall[] => declaredIn(CONTRACT_AREAS, isContract);

/**
 * A valibot schema as JSON Schema (2020-12, the dialect of OpenAPI 3.1): what a caller sends. A
 * schema used twice comes out as a local definition (`#/$defs/x`); those move to the document's
 * components under `<prefix>_<x>` (given `defs`), where a `$ref` inside an operation can reach them.
 */
export function jsonSchemaOf(
  schema: v.GenericSchema,
  prefix = "Schema",
  defs: Record<string, unknown> = {},
): JsonSchemaObject {
  const { $schema: _, $defs, ...rest } = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
    overrideSchema: requireRefusedEntries,
  }) as JsonSchemaObject;
  if (!$defs) return rest;
  const rename = (key: string) => `${prefix}_${key}`;
  const rewrite = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(rewrite);
    if (!x || typeof x !== "object") return x;
    return Object.fromEntries(
      Object.entries(x).map(([k, val]) =>
        k === "$ref" && typeof val === "string" && val.startsWith("#/$defs/")
          ? [k, `#/components/schemas/${rename(val.slice("#/$defs/".length))}`]
          : [k, rewrite(val)]
      ),
    );
  };
  for (const [key, def] of Object.entries($defs as Record<string, unknown>)) defs[rename(key)] = rewrite(def);
  return rewrite(rest) as JsonSchemaObject;
}

const OBJECTS = new Set(["object", "strict_object", "loose_object", "object_with_rest"]);

/** Whether the server refuses a body that leaves this entry out (its default, if any, fails it too). */
function refusesMissing(entry: v.GenericSchema): boolean {
  try {
    return !v.safeParse(entry, undefined).success;
  } catch {
    return false; // an async check: the server decides later, the field is not required by its shape
  }
}

/**
 * An object schema's `required`: every entry the server refuses when missing. That is each entry that
 * is not optional or nullish, and each optional one whose default fails its own checks (the forms'
 * `v.optional(v.pipe(v.string(), v.minLength(1, "... is required")), "")`): to-json-schema lists
 * neither kind's default case, so the field is marked required here and its unusable default dropped.
 */
function requireRefusedEntries({ valibotSchema, jsonSchema }: OverrideSchemaContext): JsonSchema | undefined {
  const s = valibotSchema as { type: string; entries?: Record<string, v.GenericSchema> };
  if (!OBJECTS.has(s.type) || !s.entries) return undefined;
  const required = new Set(jsonSchema.required ?? []);
  const properties = { ...jsonSchema.properties };
  for (const [key, entry] of Object.entries(s.entries)) {
    if (required.has(key) || !refusesMissing(entry)) continue;
    required.add(key);
    const prop = properties[key];
    if (prop && typeof prop === "object") {
      const { default: _, ...rest } = prop;
      properties[key] = rest;
    }
  }
  return { ...jsonSchema, properties, required: [...required] };
}

/** `/admin/client/update/:id` -> `/admin/client/update/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** "listClients" -> "List clients", "updateClientCall" -> "Update client". */
export function summaryOf(name: string): string {
  const words = name.replace(/Call$/, "").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

/** A refusal: `{ message, errors? }`, each error naming the field (`path`) it is about. */
export const ERROR_SCHEMA = {
  type: "object",
  required: ["message"],
  properties: {
    message: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

/** The envelope `{ result, message }` around a call's result schema. */
export const envelopeOf = (result: JsonSchemaObject | undefined) => ({
  type: "object",
  required: ["result", "message"],
  properties: {
    result: result ?? {},
    message: { type: "string", description: "A success message to show, or empty." },
  },
});

/** Each JSON answer's result schema, generated from the contracts' result types (`deno task openapi`). */
export const RESULTS = results as {
  results: Record<string, JsonSchemaObject>;
  schemas: Record<string, unknown>;
};

/** A file's body: binary (PDF, PNG) or text (CSV). */
const FILE_SCHEMA: Record<string, JsonSchemaObject> = {
  "application/pdf": { type: "string", contentMediaType: "application/pdf" },
  "image/png": { type: "string", contentMediaType: "image/png" },
  "text/csv": { type: "string" },
};

/**
 * Whether a call changes state (and so may meet a conflict: a duplicate, an illegal transition, a
 * unique index): every PUT and DELETE, and the POSTs that add, send, copy, upload or undo. The other
 * POSTs read (list pages, chart data, summaries, the live ticket).
 */
const WRITE_PATH =
  /\/(add|send|clone|upload|cancel|resend|revoke|reconsile|undo|keys|signing-key|excluded)(\/|$)/;
export const isWrite = (c: AnyContract) =>
  c.method === "PUT" || c.method === "DELETE" || (c.method === "POST" && WRITE_PATH.test(c.path));

/** What a call answers on success: the envelope with its typed result, a file, or an event stream. */
function okAnswer(contract: AnyContract) {
  const result = RESULTS.results[contract.key];
  if (contract.media === "text/event-stream") {
    return {
      description: "Server-sent events: each `event: update` carries the JSON of `x-event-data`.",
      content: { "text/event-stream": { schema: { type: "string" }, "x-event-data": result ?? {} } },
    };
  }
  if (contract.media) {
    return {
      description: "The file.",
      content: { [contract.media]: { schema: FILE_SCHEMA[contract.media] } },
    };
  }
  const content: Record<string, unknown> = { "application/json": { schema: envelopeOf(result) } };
  if (contract.csv) content["text/csv"] = { schema: { type: "string" } };
  return {
    description: "The call's result in the envelope, with a success message where it has one.",
    content,
  };
}

/** The refusals a call can answer, each `{ message, errors? }`. */
function refusals(contract: AnyContract): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (contract.body || contract.query || contract.ids) {
    out["400"] = errorAnswer("The input does not pass the schema: `errors` lists each field's problem.");
  }
  if (!contract.public) {
    out["401"] = errorAnswer("No session, or an expired or revoked one.");
    out["403"] = errorAnswer("The signed-in role may not make this call.");
  } else if (contract.throttled) {
    out["401"] = errorAnswer("Wrong credentials.");
  } else if (contract.media === "text/event-stream") {
    out["401"] = errorAnswer("No ticket, or an expired or forged one.");
    out["403"] = errorAnswer("The ticket's user may no longer open the stream.");
  }
  if (contract.ids) out["404"] = errorAnswer("No such record.");
  if (isWrite(contract)) {
    out["409"] = errorAnswer("The change clashes with the current state (a duplicate, a transition).");
  }
  if (contract.body) out["413"] = errorAnswer("The body is larger than the call accepts.");
  if (contract.throttled) out["429"] = errorAnswer("Too many attempts: try again later.");
  return out;
}

/**
 * Each call's operationId: its export name, or where two areas export the same name, the name
 * prefixed with its area (`supportIdentifiersReportCall`), so a generated client has one per call.
 */
export function operationIds(calls: DeclaredCall[]): Map<DeclaredCall, string> {
  const count = new Map<string, number>();
  for (const c of calls) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  const camel = (area: string) =>
    area.toLowerCase().replace(/[^a-z0-9]+(.)/g, (_, ch: string) => ch.toUpperCase()).replace(
      /[^a-zA-Z0-9]/g,
      "",
    );
  return new Map(
    calls.map((c) => [
      c,
      count.get(c.name)! > 1 ? `${camel(c.area)}${c.name.charAt(0).toUpperCase()}${c.name.slice(1)}` : c.name,
    ]),
  );
}

function operationOf(call: DeclaredCall, operationId: string, defs: Record<string, unknown>) {
  const { area, name, contract } = call;
  const roles = [...contract.roles];
  const parameters: NonNullable<ApiOperation["parameters"]> = [];
  for (const [, param] of contract.path.matchAll(/:(\w+)/g)) {
    const record = (contract.ids as Record<string, string> | undefined)?.[param];
    parameters.push({
      name: param,
      in: "path",
      required: true,
      schema: record
        ? { type: "string", pattern: "^[0-9a-f]{24}$", description: `${record} id` }
        : { type: "string" },
    });
  }
  if (contract.query) {
    const q = jsonSchemaOf(contract.query, `${name}_query`, defs);
    const props = (q.properties ?? {}) as Record<string, JsonSchemaObject>;
    const required = new Set((q.required ?? []) as string[]);
    for (const [key, schema] of Object.entries(props)) {
      parameters.push({ name: key, in: "query", required: required.has(key), schema });
    }
  }
  if (contract.csv) {
    parameters.push({
      name: "format",
      in: "query",
      required: false,
      schema: { type: "string", enum: ["csv"], description: "csv: every matching row as a CSV file" },
    });
  }
  const description = [
    contract.public ? "Public: no session needed." : `Roles: ${roles.join(", ")}.`,
    contract.csv ? "With `?format=csv` the same body answers the CSV of every matching row." : "",
    contract.bodyLimit ? `Body up to ${contract.bodyLimit} bytes.` : "",
  ].filter(Boolean).join(" ");
  const responses: Record<string, unknown> = { "200": okAnswer(contract), ...refusals(contract) };
  const op: ApiOperation & Record<string, unknown> = {
    operationId,
    tags: [area],
    summary: summaryOf(name),
    description,
    "x-roles": roles,
    ...(parameters.length ? { parameters } : {}),
    ...(contract.body
      ? {
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(contract.body, `${name}_body`, defs) } },
        },
      }
      : {}),
    responses,
    ...(contract.public ? { security: [] } : {}),
  };
  return op;
}

/** The whole document (OpenAPI 3.1.0). */
export function buildOpenApi(
  calls: DeclaredCall[] = declaredCalls(),
): ApiReference & Record<string, unknown> {
  const paths: ApiReference["paths"] = {};
  const defs: Record<string, unknown> = {};
  const ids = operationIds(calls);
  for (const call of calls) {
    const p = openApiPath(call.contract.path);
    (paths[p] ??= {})[call.contract.method.toLowerCase()] = operationOf(call, ids.get(call)!, defs);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Samplex API",
      version: VERSION,
      description: "The Samplex back-office API. Sign in with POST /admin/login and send the token as " +
        "`Authorization: Bearer <token>`. Every answer is `{ result, message }`; every refusal is " +
        "`{ message, errors? }`. Each call's description names the roles allowed to make it.",
    },
    servers: [{ url: "/api/v1" }],
    tags: Object.keys(CONTRACT_AREAS).map((name) => ({ name })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        Error: ERROR_SCHEMA,
        ...RESULTS.schemas,
        ...defs,
      },
    },
  };
}

let cached: ReturnType<typeof buildOpenApi> | undefined;
/** The document, built once per process (the contracts do not change while it runs). */
export function openApiDocument() {
  return cached ??= buildOpenApi();
}
