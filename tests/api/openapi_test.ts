/**
 * The API reference (server/openapi.ts): generated from the contracts, so every call registered from
 * a contract is documented and every documented call is registered; valid OpenAPI 3.1; served raw
 * at /api/v1/openapi.json and through its call for the in-app page.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Api } from "../../server/http/api.ts";
import { registerRoutes } from "../../server/routes/index.ts";
import { buildOpenApi, declaredCalls, openApiPath } from "../../server/openapi.ts";
import { API } from "../../shared/permissions.ts";

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
  for (const { contract, name, area } of declaredCalls()) {
    const op = doc.paths[openApiPath(contract.path)][contract.method.toLowerCase()];
    assertEquals(op.operationId, name);
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
    const raw = await t.call("GET", "/openapi.json");
    assertEquals(raw.status, 200);
    assertEquals(raw.json.openapi, "3.1.0");
    assertEquals(Object.keys(raw.json.paths).sort(), Object.keys(doc.paths).sort());
    await expectGuarded(t, "GET", "/admin/support/api-reference", "ADMIN");
    for (const role of ["APIMANAGER", "SUPERADMIN"] as const) {
      const r = await t.call("GET", "/admin/support/api-reference", { token: await t.tokenFor(role) });
      assertEquals(r.status, 200, role);
      assertEquals(r.json.result.paths["/admin/login"].post.operationId, "loginCall");
    }
  } finally {
    await t.close();
  }
});
