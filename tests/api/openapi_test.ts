/**
 * The API reference (server/openapi.ts): generated from the contracts, so every call registered from
 * a contract is documented and every documented call is registered; valid OpenAPI 3.1; served raw
 * at /api/v1/openapi.json and through its call for the in-app page.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Api } from "../../server/http/api.ts";
import { registerRoutes } from "../../server/routes/index.ts";
import { buildOpenApi, declaredCalls, openApiPath, operationIds } from "../../server/openapi.ts";
import { API } from "../../shared/permissions.ts";
import * as v from "valibot";
import * as Ops from "../../shared/api/ops.ts";

const doc = buildOpenApi();
/** "METHOD /path" of every documented operation, in the permission table's form. */
const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`)
);

Deno.test("OpenAPI: every call registered from a contract is documented, every documented call is registered", () => {
  const api = new Api();
  registerRoutes(api);
  // every call is registered from its contract, so every registered call is documented
  assert(api.registered.length >= 80, `${api.registered.length} calls registered`);
  const docs = new Set(documented);
  assertEquals(api.registered.filter((k) => !docs.has(k)), [], "registered but not documented");
  const registered = new Set(api.registered);
  assertEquals(documented.filter((k) => !registered.has(k)), [], "documented but not registered");
  assertEquals(new Set(documented).size, documented.length, "one operation per call");
});

Deno.test("OpenAPI: every documented call names the roles of the permission table", () => {
  const calls = declaredCalls();
  const ids = operationIds(calls);
  for (const call of calls) {
    const { contract, area } = call;
    const op = doc.paths[openApiPath(contract.path)][contract.method.toLowerCase()];
    assertEquals(op.operationId, ids.get(call));
    assertEquals(op.tags, [area]);
    if (contract.public) {
      assertEquals(op.description.startsWith("Public"), true, contract.key);
      continue;
    }
    const roles = API[contract.key];
    assertEquals(op["x-roles"], [...roles], contract.key);
    assert(op.description.startsWith(`Roles: ${roles.join(", ")}.`), `${contract.key}: ${op.description}`);
  }
});

// The paths below are keys of the OpenAPI document (its own {id} spelling): what these tests check,
// so they stay spelled by hand.
Deno.test("OpenAPI: bodies, queries and path ids come from the contracts' schemas", () => {
  const add = doc.paths["/admin/client/add"].post;
  const body = add.requestBody!.content["application/json"].schema as {
    type: string;
    properties: Record<string, { minLength?: number; maxLength?: number }>;
  };
  assertEquals(body.type, "object");
  assertEquals(body.properties.clientName.minLength, 4, "the schema's own limits");
  assert(typeof body.properties.clientName.maxLength === "number");
  const update = doc.paths["/admin/client/update/{id}"].put;
  assertEquals(update.parameters?.find((p) => p.name === "id")?.in, "path");
  const withQuery = declaredCalls().find((c) => c.contract.query);
  assert(withQuery, "some call has a query schema");
  const op = doc.paths[openApiPath(withQuery.contract.path)][withQuery.contract.method.toLowerCase()];
  assert(op.parameters?.some((p) => p.in === "query"), `${withQuery.contract.key} documents its query`);
});

Deno.test("OpenAPI: the document validates against the OpenAPI 3.1 schema", async () => {
  const validator = new Validator();
  const res = await validator.validate(structuredClone(doc));
  assertEquals(res.errors, undefined);
  assertEquals(res.valid, true);
  assertEquals(validator.version, "3.1");
});

Deno.test("OpenAPI: served at /api/v1/openapi.json without a session, and to APIMANAGER and SUPERADMIN in the app", async () => {
  const t = await testApp();
  try {
    // the document's own address, no contract: spelled by hand
    const raw = await t.call("GET", "/openapi.json");
    assertEquals(raw.status, 200);
    assertEquals(raw.json.openapi, "3.1.0");
    assertEquals(Object.keys(raw.json.paths).sort(), Object.keys(doc.paths).sort());
    await expectCallGuarded(t, Ops.apiReferenceCall, "ADMIN");
    for (const role of ["APIMANAGER", "SUPERADMIN"] as const) {
      const r = await t.api(Ops.apiReferenceCall, { token: await t.tokenFor(role) });
      assertEquals(r.status, 200, role);
      assertEquals(r.json.result.paths["/admin/login"].post.operationId, "loginCall");
    }
  } finally {
    await t.close();
  }
});

type Op = (typeof doc.paths)[string][string] & {
  responses: Record<string, { content?: Record<string, unknown> }>;
};
const opOf = (path: string, method: string) => doc.paths[path][method] as Op;
const mediaOf = (path: string, method: string) =>
  Object.keys(opOf(path, method).responses["200"].content ?? {});

Deno.test("OpenAPI: files and the live stream are declared with their real media types, not JSON", () => {
  assertEquals(mediaOf("/admin/invoice/download/{id}", "post"), ["application/pdf"]);
  assertEquals(mediaOf("/admin/invoice/supplier/download/{id}", "post"), ["application/pdf"]);
  assertEquals(mediaOf("/admin/project/progress/{projectId}", "get"), ["image/png"]);
  assertEquals(mediaOf("/admin/project/group/report", "post"), ["text/csv"]);
  assertEquals(mediaOf("/admin/identifiers/report", "post"), ["text/csv"]);
  assertEquals(mediaOf("/admin/dashboard/live", "get"), ["text/event-stream"]);
  // the stream's events carry the live figures' schema
  const live = opOf("/admin/dashboard/live", "get").responses["200"].content!["text/event-stream"] as Record<
    string,
    { properties?: Record<string, unknown> }
  >;
  assert(live["x-event-data"].properties, "the event data is typed");
  // a list answers JSON, and with ?format=csv its CSV
  assertEquals(mediaOf("/admin/clients", "post"), ["application/json", "text/csv"]);
  for (const { contract } of declaredCalls()) {
    const media = mediaOf(openApiPath(contract.path), contract.method.toLowerCase());
    if (contract.media) assertEquals(media, [contract.media], contract.key);
    else assert(media.includes("application/json"), contract.key);
  }
});

Deno.test("OpenAPI: every JSON answer types its result, and the refusals that apply are declared as { message, errors }", () => {
  let typed = 0;
  for (const { contract } of declaredCalls()) {
    const op = opOf(openApiPath(contract.path), contract.method.toLowerCase());
    const json = op.responses["200"].content!["application/json"] as
      | { schema: { required: string[]; properties: { result: Record<string, unknown> } } }
      | undefined;
    if (json) {
      assert(Object.keys(json.schema.properties.result).length > 0, `${contract.key}: the result is untyped`);
      assertEquals(json.schema.required, ["result", "message"]);
      typed++;
    }
    const statuses = Object.keys(op.responses);
    for (const status of statuses.filter((s) => s !== "200")) {
      assertEquals(
        op.responses[status].content,
        { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        `${contract.key} ${status}`,
      );
    }
    if (!contract.public) assert(statuses.includes("401") && statuses.includes("403"), contract.key);
    assertEquals(statuses.includes("404"), !!contract.ids, contract.key);
    assertEquals(statuses.includes("413"), !!contract.body, contract.key);
    assertEquals(statuses.includes("429"), !!contract.throttled, contract.key);
    if (contract.method === "GET") {
      assert(!statuses.includes("409"), `${contract.key}: a read does not conflict`);
    }
    if (contract.method === "PUT") {
      assert(statuses.includes("409"), `${contract.key}: an update can conflict`);
    }
  }
  assert(typed >= 150, `${typed} typed answers`);
  const login = Object.keys(opOf("/admin/login", "post").responses);
  assertEquals(login.sort(), ["200", "400", "401", "413", "429"]);
  assert(Object.keys(opOf("/admin/client/add", "post").responses).includes("409"), "a duplicate client code");
  assert(!Object.keys(opOf("/admin/clients", "post").responses).includes("409"), "a list does not conflict");
  const error = (doc.components as { schemas: Record<string, { required: string[]; properties: object }> })
    .schemas.Error;
  assertEquals(error.required, ["message"]);
  assertEquals(Object.keys(error.properties), ["message", "errors"]);
});

Deno.test("OpenAPI: a body lists as required every field the server refuses when it is missing", () => {
  const login = opOf("/admin/login", "post").requestBody!.content["application/json"].schema as {
    required: string[];
    properties: Record<string, { default?: unknown }>;
  };
  assertEquals(login.required, ["email", "password"]);
  assertEquals(login.properties.email.default, undefined, "no default the server would refuse");
  const client = opOf("/admin/client/add", "post").requestBody!.content["application/json"].schema as {
    required: string[];
  };
  assert(client.required.includes("clientName"), JSON.stringify(client.required));
  // every object body: required exactly when leaving the entry out is refused
  let checked = 0;
  for (const { contract } of declaredCalls()) {
    const body = contract.body as { type: string; entries?: Record<string, v.GenericSchema> } | undefined;
    if (!body?.entries || !["object", "strict_object", "loose_object"].includes(body.type)) continue;
    const schema = opOf(openApiPath(contract.path), contract.method.toLowerCase()).requestBody!
      .content["application/json"].schema as { required?: string[] };
    const refused = Object.entries(body.entries)
      .filter(([, entry]) => !v.safeParse(entry, undefined).success).map(([k]) => k);
    assertEquals([...(schema.required ?? [])].sort(), refused.sort(), contract.key);
    checked++;
  }
  assert(checked >= 50, `${checked} object bodies checked`);
});

Deno.test("OpenAPI: operationIds are unique", () => {
  const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
  const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
  assertEquals(dupes, []);
  assertEquals(opOf("/admin/identifiers/report", "post").operationId, "supportIdentifiersReportCall");
  assertEquals(
    opOf("/admin/project/child/report", "post").operationId,
    "projectReportsAndEMailsIdentifiersReportCall",
  );
});
