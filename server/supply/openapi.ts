/**
 * The supply API's own reference (issue 23): an OpenAPI 3.1 document of every `/supply/v1` call,
 * generated from the supply contracts (shared/api/supply*.ts) the way the back-office reference is
 * (server/openapi.ts): query and body schemas from the valibot schemas that check the requests, each
 * answer's result schema from the contract's TypeScript result type (server/openapi-results.json,
 * `deno task openapi`), the refusals that apply, the `X-Api-Key` security scheme, and a curl example
 * per call (`x-codeSamples`, the field documentation tools such as Redoc show). Served without a key
 * at /supply/v1/openapi.json and rendered on the portal's API page.
 */
import type { JsonSchemaObject } from "../../shared/api/ops.ts";
import * as questions from "../../shared/api/supply.ts";
import * as books from "../../shared/api/supply-books.ts";
import * as surveys from "../../shared/api/supply-surveys.ts";
import { API_KEY_HEADER, SUPPLY_BASE, type SupplyContract } from "../../shared/api/supply.ts";
import {
  declaredIn,
  envelopeOf,
  ERROR_SCHEMA,
  errorAnswer,
  jsonSchemaOf,
  openApiPath,
  RESULTS,
  summaryOf,
} from "../openapi.ts";
import { VERSION } from "../domain/ops/version.ts";

/** The supply contract modules by the area (tag) their calls are listed under. */
export const SUPPLY_AREAS: Record<string, Record<string, unknown>> = {
  Surveys: surveys,
  Library: questions,
  Books: books,
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  Surveys: "The live surveys you may send members to, their quotas, and starting one from the inventory.",
  Library: "The question library a panel maps its profile data to.",
  Books: "Your sessions, figures and members: transactions, stats and a member's erase.",
};

export type SupplyCall = { area: string; name: string; contract: SupplyContract };

function isSupplyContract(x: unknown): x is SupplyContract {
  const c = x as SupplyContract;
  return !!c && typeof c === "object" && typeof c.method === "string" && typeof c.path === "string" &&
    typeof c.key === "string" && c.key.startsWith(`${c.method} ${SUPPLY_BASE}/`) && "result" in c;
}

/** Every declared supply call, with its area and export name; one entry per call. */
export const declaredSupplyCalls = (): SupplyCall[] => declaredIn(SUPPLY_AREAS, isSupplyContract);

/** The placeholder a curl example names the server by (the portal shows the real origin). */
export const SERVER_PLACEHOLDER = "$SAMPLEX";

/** A curl example of a call: path ids as `{id}`, the query's first fields as examples. */
export function curlOf(contract: SupplyContract, queryNames: string[]): string {
  const url = `${SERVER_PLACEHOLDER}${SUPPLY_BASE}${openApiPath(contract.path)}`;
  const shown = queryNames.slice(0, 2).map((n) => `${n}=…`).join("&");
  const lines = [
    `curl ${contract.method === "GET" ? "" : `-X ${contract.method} `}-H "${API_KEY_HEADER}: $KEY"`,
  ];
  if (contract.csv) lines.push(`  -H "Accept: text/csv"`);
  if (contract.body) lines.push(`  -H "Content-Type: application/json" -d '{…}'`);
  lines.push(`  "${url}${shown ? `?${shown}` : ""}"`);
  return lines.join(" \\\n");
}

/** The refusals a supply call can answer, each `{ message, errors? }`. */
function refusals(contract: SupplyContract): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const hasPathIds = /:\w+/.test(contract.path);
  if (contract.query || contract.body || hasPathIds) {
    out["400"] = errorAnswer(
      "The input does not pass the schema (`errors` lists each field's problem), or a key was sent in the URL.",
    );
  } else out["400"] = errorAnswer("A key was sent in the URL instead of the header.");
  out["401"] = errorAnswer("No key, or an unknown, revoked or expired one, or its supplier is inactive.");
  if (hasPathIds) out["404"] = errorAnswer("No such record, or not this supplier's.");
  if (contract.body) out["413"] = errorAnswer("The body is larger than the call accepts.");
  out["429"] = {
    ...errorAnswer("Too many calls with this key: wait the seconds `Retry-After` says."),
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", minimum: 1 } } },
  };
  return out;
}

function operationOf(call: SupplyCall, defs: Record<string, unknown>) {
  const { area, name, contract } = call;
  const parameters: {
    name: string;
    in: "path" | "query" | "header";
    required: boolean;
    schema: JsonSchemaObject;
  }[] = [];
  for (const [, param] of contract.path.matchAll(/:(\w+)/g)) {
    parameters.push({ name: param, in: "path", required: true, schema: { type: "string", maxLength: 128 } });
  }
  const queryNames: string[] = [];
  if (contract.query) {
    const q = jsonSchemaOf(contract.query, `${name}_query`, defs);
    const required = new Set((q.required ?? []) as string[]);
    for (const [key, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonSchemaObject>)) {
      parameters.push({ name: key, in: "query", required: required.has(key), schema });
      queryNames.push(key);
    }
  }
  if (contract.etag) {
    parameters.push({
      name: "If-None-Match",
      in: "header",
      required: false,
      schema: { type: "string", description: "The ETag of the answer you hold: 304 while it still holds." },
    });
  }
  const result = RESULTS.results[contract.key];
  const content: Record<string, unknown> = { "application/json": { schema: envelopeOf(result) } };
  if (contract.csv) content["text/csv"] = { schema: { type: "string" } };
  const responses: Record<string, unknown> = {
    "200": {
      description: contract.csv
        ? "The result in the envelope; with `Accept: text/csv`, the same rows as CSV."
        : "The result in the envelope.",
      content,
      ...(contract.etag
        ? { headers: { ETag: { description: "The answer's version.", schema: { type: "string" } } } }
        : {}),
    },
    ...(contract.etag ? { "304": { description: "Unchanged since the ETag in If-None-Match." } } : {}),
    ...refusals(contract),
  };
  return {
    operationId: name,
    tags: [area],
    summary: summaryOf(name.replace(/^supply/, "")),
    description: contract.doc ?? summaryOf(name.replace(/^supply/, "")),
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
    "x-codeSamples": [{ lang: "curl", label: "curl", source: curlOf(contract, queryNames) }],
  };
}

/** The supply API's whole document (OpenAPI 3.1.0). */
export function buildSupplyOpenApi(calls: SupplyCall[] = declaredSupplyCalls()) {
  const paths: Record<string, Record<string, ReturnType<typeof operationOf>>> = {};
  const defs: Record<string, unknown> = {};
  for (const call of calls) {
    (paths[openApiPath(call.contract.path)] ??= {})[call.contract.method.toLowerCase()] = operationOf(
      call,
      defs,
    );
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Samplex supply API",
      version: VERSION,
      description:
        `A supplier's programmatic window on the exchange. Send one of your API keys (the portal's ` +
        `API page) in the \`${API_KEY_HEADER}\` header of every call, never in the URL. Every answer is ` +
        "`{ result, message }`; every refusal is `{ message, errors? }`.",
      license: { name: "Proprietary", identifier: "LicenseRef-Samplex" },
    },
    servers: [{ url: SUPPLY_BASE }],
    tags: Object.keys(SUPPLY_AREAS).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: API_KEY_HEADER } },
      schemas: { Error: ERROR_SCHEMA, ...usedResultSchemas(paths), ...defs },
    },
  };
}

/** The generated result schemas the paths reach (directly or through another schema), no others. */
function usedResultSchemas(paths: unknown): Record<string, unknown> {
  const all = RESULTS.schemas as Record<string, unknown>;
  const used: Record<string, unknown> = {};
  const visit = (x: unknown) => {
    if (Array.isArray(x)) return x.forEach(visit);
    if (!x || typeof x !== "object") return;
    for (const [k, val] of Object.entries(x)) {
      if (k === "$ref" && typeof val === "string" && val.startsWith("#/components/schemas/")) {
        const name = val.slice("#/components/schemas/".length);
        if (name in all && !(name in used)) {
          used[name] = all[name];
          visit(all[name]);
        }
      } else visit(val);
    }
  };
  visit(paths);
  return used;
}

let cached: ReturnType<typeof buildSupplyOpenApi> | undefined;
/** The document, built once per process (the contracts do not change while it runs). */
export function supplyOpenApiDocument() {
  return cached ??= buildSupplyOpenApi();
}
