/**
 * The supply API's reference (issue 23, item 4): generated from the supply contracts, every route
 * of the supply app documented and every documented call routed, valid OpenAPI 3.1 for a schema
 * validator and for a real linter (Redocly CLI, recommended rules), typed answers (no `unknown`
 * result anywhere: a generated client reads real field types), a curl example per call, and served
 * without a key at /supply/v1/openapi.json.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { generatedClientProblems, redoclyErrors } from "../helpers/openapi.ts";
import { Validator } from "@seriousme/openapi-schema-validator";
import { buildSupplyOpenApi, declaredSupplyCalls, SERVER_PLACEHOLDER } from "../../server/supply/openapi.ts";
import { supplyApp } from "../../server/supply/app.ts";
import { openApiPath } from "../../server/openapi.ts";
import { API_KEY_HEADER, SUPPLY_BASE } from "../../shared/api/supply.ts";

const doc = buildSupplyOpenApi();
type Op = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  "x-codeSamples": { lang: string; source: string }[];
};
const ops = Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op }))
);

Deno.test("supply OpenAPI: every route of the supply app is documented, every documented call is routed", () => {
  const routed = supplyApp().routes
    .filter((r) => r.method !== "ALL" && r.path !== "/openapi.json")
    .map((r) => `${r.method} ${openApiPath(r.path)}`);
  const documented = ops.map((o) => o.key);
  assert(documented.length >= 1);
  assertEquals(routed.filter((k) => !documented.includes(k)), [], "routed but not documented");
  assertEquals(documented.filter((k) => !routed.includes(k)), [], "documented but not routed");
  assertEquals(
    declaredSupplyCalls().map((c) => `${c.contract.method} ${openApiPath(c.contract.path)}`).sort(),
    [...documented].sort(),
  );
});

Deno.test("supply OpenAPI: valid 3.1 for the schema validator, no error from the Redocly linter", async () => {
  const validator = new Validator();
  const res = await validator.validate(structuredClone(doc));
  assertEquals(res.errors, undefined);
  assertEquals(res.valid, true);
  const report = await redoclyErrors(doc);
  assertEquals(report.errors, []);
  assertEquals(report.total, 0);
});

/** Every schema inside `x` that accepts anything (`{}` or a `$ref`-less object with no type): an untyped answer. */
function untyped(x: unknown, at: string, out: string[] = []): string[] {
  if (Array.isArray(x)) {
    x.forEach((y, i) => untyped(y, `${at}/${i}`, out));
    return out;
  }
  if (!x || typeof x !== "object") return out;
  const s = x as Record<string, unknown>;
  const typed = ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"].some((k) => k in s);
  if (!typed) out.push(at || "/");
  for (const key of ["properties", "$defs"] as const) {
    for (const [name, sub] of Object.entries((s[key] ?? {}) as Record<string, unknown>)) {
      untyped(sub, `${at}/${key}/${name}`, out);
    }
  }
  for (const key of ["items", "additionalProperties"] as const) {
    if (s[key] && typeof s[key] === "object") untyped(s[key], `${at}/${key}`, out);
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((y, i) => untyped(y, `${at}/${key}/${i}`, out));
  }
  return out;
}

Deno.test("supply OpenAPI: every answer is typed (no unknown anywhere in a result) and a generated client reads it", async () => {
  const schemas = doc.components.schemas as Record<string, unknown>;
  for (const { key, op } of ops) {
    const json = op.responses["200"].content?.["application/json"]?.schema;
    assert(json, `${key}: a JSON answer`);
    assertEquals(untyped(json, key), [], `${key}: untyped parts`);
  }
  for (const [name, schema] of Object.entries(schemas)) assertEquals(untyped(schema, name), [], name);
  // the checker proves it: a field the answer does not have is an error, a real one has its type
  const problems = await generatedClientProblems(
    doc,
    `import type { operations } from "./api.ts";
declare const q: operations["supplyQuestionsCall"]["responses"][200]["content"]["application/json"];
export const id: string = q.result.data[0].answers[0].id;
export const type: "TEXT" | "RADIO" | "DROPDOWN" | "CHECKBOX" | "MAP" = q.result.data[0].type;
// @ts-expect-error a field the answer does not have
export const nope = q.result.data[0].noSuchField;
declare const refused: operations["supplyQuestionsCall"]["responses"][401]["content"]["application/json"];
export const why: string = refused.message;
`,
  );
  assertEquals(problems, null, `the generated client does not type-check:\n${problems}`);
});

Deno.test("supply OpenAPI: the key scheme is the header, each call has a curl example naming it, 429 says Retry-After", () => {
  assertEquals(doc.components.securitySchemes.apiKey, { type: "apiKey", in: "header", name: API_KEY_HEADER });
  assertEquals(doc.security, [{ apiKey: [] }]);
  assertEquals(doc.servers, [{ url: SUPPLY_BASE }]);
  for (const { key, op } of ops) {
    const curl = op["x-codeSamples"].find((s) => s.lang === "curl")?.source ?? "";
    assertMatch(curl, new RegExp(`-H "${API_KEY_HEADER}: \\$KEY"`), key);
    assert(curl.includes(`${SERVER_PLACEHOLDER}${SUPPLY_BASE}`), `${key}: ${curl}`);
    assert(!/api_key=|key=/.test(curl), `${key}: a key in the URL`);
    const tooMany = op.responses["429"] as unknown as { headers?: Record<string, unknown> };
    assert(tooMany?.headers?.["Retry-After"], `${key}: 429 documents Retry-After`);
    assert(op.responses["401"], `${key}: 401 documented`);
  }
});

Deno.test("supply OpenAPI: served at /supply/v1/openapi.json without a key; the calls behind it still need one", async () => {
  const t = await testApp();
  try {
    const res = await t.app.request(`${SUPPLY_BASE}/openapi.json`);
    assertEquals(res.status, 200);
    const served = await res.json();
    assertEquals(served.openapi, "3.1.0");
    assertEquals(Object.keys(served.paths).sort(), Object.keys(doc.paths).sort());
    const first = ops[0].key.split(" ")[1];
    if (!first.includes("{")) {
      const refused = await t.app.request(`${SUPPLY_BASE}${first}`);
      assertEquals(refused.status, 401);
    }
  } finally {
    await t.close();
  }
});
