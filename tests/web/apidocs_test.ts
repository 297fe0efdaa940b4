/** The API reference page's model: every documented call shown once under its area, with its fields. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { buildOpenApi } from "../../server/openapi.ts";
import { fieldsOf, groupByArea, matches, typeOf } from "../../web/src/features/apidocs/reference.ts";
import { canOpenScreen } from "../../shared/permissions.ts";
import { ROLES } from "../../shared/roles.ts";

const doc = buildOpenApi();

Deno.test("API reference page: every operation once, under the area of its tag", () => {
  const groups = groupByArea(doc);
  const shown = groups.flatMap((g) => g.operations.map((o) => `${o.method} ${o.path}`));
  const all = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)
  );
  assertEquals(shown.sort(), all.sort());
  for (const g of groups) for (const o of g.operations) assertEquals(o.op.tags[0], g.area);
  const login = groups.find((g) => g.area === "Session")!.operations.find((o) => o.path === "/admin/login")!;
  assert(matches(login, "login") && matches(login, "POST") && !matches(login, "supplier/update"));
  const addClient = groups.flatMap((g) => g.operations).find((o) => o.op.operationId === "addClient")!;
  assert(matches(addClient, "accountant"), "found by a role");
});

Deno.test("API reference page: a body's fields with type, required and limits", () => {
  const body = doc.paths["/admin/client/add"].post.requestBody!.content["application/json"].schema;
  const name = fieldsOf(body).find((f) => f.name === "clientName")!;
  assertEquals(name.type, "string");
  assert(name.notes.includes("length 4–"), name.notes);
  assertEquals(typeOf({ anyOf: [{ type: "string" }, { type: "null" }] }), "string | null");
  assertEquals(typeOf({ type: "array", items: { enum: ["a", "b"] } }), 'array of "a" | "b"');
});

Deno.test("API reference and Backups screens: the roles of the issue", () => {
  const open = (path: string) => ROLES.filter((r) => canOpenScreen(r, path));
  assertEquals(open("/admin/support/api-reference").sort(), ["APIMANAGER", "SUPERADMIN"]);
  assertEquals(open("/admin/support/backups").sort(), ["ACCOUNTANT", "ADMIN", "SUPERADMIN"]);
});
