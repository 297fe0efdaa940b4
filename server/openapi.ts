/**
 * The API reference: an OpenAPI 3.1 document of every /api/v1 call declared by a contract
 * (shared/api/<area>.ts), generated from those contracts so it cannot drift: the path and method,
 * the path ids, the query and body schemas (the valibot schemas that validate the requests, turned
 * into JSON Schema by @valibot/to-json-schema), and the roles of the permission table in each
 * call's description. Result types are TypeScript types only, so every answer is described by the
 * envelope `{ result, message }`. Every call of the permission table has a contract (a test keeps
 * it so). Served at /api/v1/openapi.json and rendered in the app (Support > API reference).
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
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
import * as support from "../shared/api/support.ts";
import * as reconcile from "../shared/api/reconcile.ts";
import * as accounts from "../shared/api/accounts.ts";
import * as providers from "../shared/api/providers.ts";
import * as reports from "../shared/api/reports.ts";
import * as portal from "../shared/api/portal.ts";
import { VERSION } from "./domain/ops/version.ts";

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
  Projects: projects,
  "Project tabs": projectParts,
  "Supplier maps": supplierMaps,
  "Project reports and e-mails": projectReports,
  Reconcile: reconcile,
  Accounts: accounts,
  "External providers": providers,
  Reports: reports,
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

/** Every declared call, with its area and export name; one entry per call. */
export function declaredCalls(): DeclaredCall[] {
  const seen = new Set<string>();
  const out: DeclaredCall[] = [];
  for (const [area, mod] of Object.entries(CONTRACT_AREAS)) {
    for (const [name, value] of Object.entries(mod)) {
      if (!isContract(value) || seen.has(value.key)) continue;
      seen.add(value.key);
      out.push({ area, name, contract: value });
    }
  }
  return out;
}

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

/** `/admin/client/update/:id` -> `/admin/client/update/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** "listClients" -> "List clients", "updateClientCall" -> "Update client". */
function summaryOf(name: string): string {
  const words = name.replace(/Call$/, "").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

function operationOf({ area, name, contract }: DeclaredCall, defs: Record<string, unknown>) {
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
  const ok: Record<string, unknown> = { "application/json": { schema: ref("Envelope") } };
  if (contract.csv) ok["text/csv"] = { schema: { type: "string" } };
  const responses: Record<string, unknown> = {
    "200": {
      description: "The call's result in the envelope, with a success message where it has one.",
      content: ok,
    },
  };
  if (contract.body || contract.query || contract.ids) {
    responses["400"] = errorAnswer(
      "The input does not pass the schema: `errors` lists each field's problem.",
    );
  }
  if (!contract.public) {
    responses["401"] = errorAnswer("No session, or an expired or revoked one.");
    responses["403"] = errorAnswer("The signed-in role may not make this call.");
  }
  if (contract.ids) responses["404"] = errorAnswer("No such record.");
  if (contract.body) responses["413"] = errorAnswer("The body is larger than the call accepts.");
  const op: ApiOperation & Record<string, unknown> = {
    operationId: name,
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
  for (const call of calls) {
    const p = openApiPath(call.contract.path);
    (paths[p] ??= {})[call.contract.method.toLowerCase()] = operationOf(call, defs);
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
        Envelope: {
          type: "object",
          required: ["result"],
          properties: {
            result: { description: "The call's result (a record, a page of a list, a list of options...)." },
            message: { type: "string", description: "A success message to show, or empty." },
          },
        },
        Error: {
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
        },
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
