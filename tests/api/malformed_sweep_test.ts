/**
 * Bad input never answers 500: every registered API call (the permission table `API`) gets bodies
 * with number and string extremes in every field the shared schemas know, signed in as SUPERADMIN
 * (a supplier login for /supplier calls), on top of a valid body where the call has a form.
 * Fields the call refuses are put back (or dropped) and the body sent again, so the extremes the
 * call accepts reach the domain and the database too.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type ApiInput, testApp } from "../helpers/app.ts";
import { API } from "../../shared/permissions.ts";
import * as listSchemas from "../../shared/list.ts";
import * as clientSchemas from "../../shared/schemas/client.ts";
import * as supplierSchemas from "../../shared/schemas/supplier.ts";
import * as userSchemas from "../../shared/schemas/user.ts";
import * as projectSchemas from "../../shared/schemas/project.ts";
import * as librarySchemas from "../../shared/schemas/library.ts";
import * as lookupSchemas from "../../shared/schemas/lookups.ts";
import * as emailSchemas from "../../shared/schemas/email.ts";
import { childProjectBody, makeChild, makeClient, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import { clientBody, created, qualificationBody, questionBody, supplierBody } from "../helpers/master.ts";
import * as P from "../../shared/api/projects.ts";
import * as Maps from "../../shared/api/supplier-maps.ts";
import * as Cl from "../../shared/api/clients.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Users from "../../shared/api/users.ts";
import type { AnyContract } from "../../shared/api/contract.ts";

/** Every object key any exported schema of these modules knows (through pipes, unions, lazies, arrays). */
function fieldNames(modules: Record<string, unknown>[]): string[] {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (s: unknown) => {
    if (!s || typeof s !== "object" || seen.has(s)) return;
    seen.add(s);
    const schema = s as Record<string, unknown>;
    if (schema.kind !== "schema" && !Array.isArray(schema.pipe)) return;
    if (schema.entries && typeof schema.entries === "object") {
      for (const [k, e] of Object.entries(schema.entries)) {
        names.add(k);
        walk(e);
      }
    }
    for (const key of ["wrapped", "item", "value"]) walk(schema[key]);
    for (const key of ["pipe", "options"]) {
      if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach(walk);
    }
    if (schema.type === "lazy" && typeof schema.getter === "function") {
      walk((schema.getter as (x: unknown) => unknown)({}));
    }
  };
  for (const m of modules) for (const x of Object.values(m)) walk(x);
  // soft delete would take the fixtures away from the calls after it
  names.delete("isDeleted");
  return [...names].sort();
}

const FIELDS = fieldNames([
  listSchemas,
  clientSchemas,
  supplierSchemas,
  userSchemas,
  projectSchemas,
  librarySchemas,
  lookupSchemas,
  emailSchemas,
]);

const BIG_DIGITS = "9".repeat(400);
/** Extremes as raw JSON (a 400-digit number parses to Infinity). */
const EXTREMES: string[] = [
  "1e308",
  "-1e308",
  BIG_DIGITS,
  "1.5",
  "-1",
  JSON.stringify(BIG_DIGITS),
  JSON.stringify("x".repeat(60_000)),
  JSON.stringify("ab\u0000cd"),
  "true",
  "null",
];

function rawBody(base: Record<string, unknown>, fields: string[], extreme: string): string {
  const parts = Object.entries(base).filter(([k]) => !fields.includes(k)).map(([k, val]) =>
    `${JSON.stringify(k)}:${JSON.stringify(val)}`
  );
  for (const f of fields) parts.push(`${JSON.stringify(f)}:${extreme}`);
  return `{${parts.join(",")}}`;
}

Deno.test("no API call answers 500 to number or string extremes in any field", async () => {
  const t = await testApp();
  try {
    let admin = await t.tokenFor("SUPERADMIN");
    const supplierToken = await t.tokenFor("SUPPLIER");
    const client = await makeClient(t);
    const supplier = await makeSupplier(t);
    const parent = await makeParent(t, { clientId: client._id });
    const child = await makeChild(t, parent);
    const manager = await t.userWith("MANAGER");
    const call = (method: string, path: string, raw?: string) =>
      t.call(method, path, { token: path.startsWith("/supplier") ? supplierToken : admin, raw });
    const map = await created(t, admin, Maps.saveSupplierMapCall, {
      projectId: child._id,
      supplierId: supplier._id,
    });
    const rule = await created(t, admin, Lib.addSupplierRule, { minSupplierCpi: 1, maxSupplierCpi: 2 });
    const category = await created(t, admin, Lib.addCategory, {
      categoryTitle: "Auto",
      categoryDesc: "Cars",
    });
    const question = await created(t, admin, Lib.addTempQuestion, questionBody());
    const qualification = await created(t, admin, Lib.addQualification, qualificationBody());

    const idFor = (path: string, param: string): string => {
      if (param === "projectCode") return child.projectCode;
      if (/project/i.test(param) || /^\/admin\/project\//.test(path) && param === "id") return child._id;
      if (path.includes("/supplierMap/")) return map._id;
      if (path.includes("/supplier/rule/")) return rule._id;
      if (path.includes("/client/")) return client._id;
      if (path.includes("/supplier/") || param === "supplierId") return supplier._id;
      if (path.includes("/category/")) return category._id;
      if (path.includes("/question/temp/")) return question._id;
      if (path.includes("/qualification/")) return qualification._id;
      if (path.includes("/user/")) return manager.id;
      return "0".repeat(24);
    };
    /** Valid bodies of the calls with a form: the extremes go in on top. */
    const bases: Record<string, Record<string, unknown>> = {
      [Cl.addClient.key]: clientBody(),
      [Cl.updateClientCall.key]: clientBody(),
      [Sup.addSupplier.key]: supplierBody(),
      [Sup.updateSupplierCall.key]: supplierBody(),
      [P.addProject.key]: childProjectBody(parent),
      [P.updateProjectCall.key]: {},
      [Maps.saveSupplierMapCall.key]: { projectId: child._id, supplierId: supplier._id },
      [Maps.updateSupplierMapCall.key]: { projectId: child._id, supplierId: supplier._id },
      [Lib.addSupplierRule.key]: { minSupplierCpi: 1, maxSupplierCpi: 2 },
      [Lib.updateSupplierRuleCall.key]: { minSupplierCpi: 1, maxSupplierCpi: 2 },
      [Lib.addTempQuestion.key]: questionBody(),
      [Lib.addQualification.key]: qualificationBody(),
      [Users.addUser.key]: {
        firstName: "Sweep",
        lastName: "User",
        email: "sweep@test.local",
        role: "MANAGER",
        password: "Passw0rd!",
      },
    };

    const failures: string[] = [];
    let sent = 0;
    // every entry of the permission table, its path filled from its pattern (the sweep is over paths)
    for (const key of Object.keys(API)) {
      if (key === "POST /admin/logout") continue; // would end the session the sweep runs on
      const [method, pattern] = key.split(" ");
      const path = pattern.replace(/:(\w+)/g, (_, p) => idFor(pattern, p));
      const base = bases[key] ?? {};
      if (method === "GET") {
        const r = await call(method, `${path}?search=${"x".repeat(60_000)}&pageNo=1e308&type=1e308`);
        sent++;
        if (r.status >= 500) failures.push(`${key} (query extremes): ${r.status} ${r.text.slice(0, 200)}`);
        continue;
      }
      for (const extreme of EXTREMES) {
        let fields = FIELDS;
        for (let round = 0; round < 4; round++) {
          const r = await call(method, path, rawBody(base, fields, extreme));
          sent++;
          if (r.status === 401) admin = await t.tokenFor("SUPERADMIN");
          if (r.status >= 500) {
            failures.push(
              `${key} ${extreme.slice(0, 20)} [${fields.length} fields]: ${r.status} ${r.text.slice(0, 200)}`,
            );
            break;
          }
          // fields the call refused go back to their valid value (or away), to let the others through
          const refused = new Set<string>(
            (r.json?.errors ?? []).map((e: { path?: string }) => String(e.path ?? "").split(".")[0]),
          );
          const next = fields.filter((f) => !refused.has(f));
          if (r.status < 400 || next.length === fields.length || !next.length) break;
          fields = next;
        }
      }
    }
    assertEquals(failures, [], `${failures.length} answers of 500 among ${sent} calls`);
    assert(sent > Object.keys(API).length * 3, `${sent} calls sent`);
  } finally {
    await t.close();
  }
});

Deno.test("numbers: finite, whole where counted, within sane bounds; README's status: true is taken", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const client = await makeClient(t);
    const supplier = await makeSupplier(t);
    const parent = await makeParent(t, { clientId: client._id });
    const child = await makeChild(t, parent);
    const add = (body: unknown) => t.api(P.addProject, { token, bad: body });
    for (
      const [field, value] of [["cpi", 1e308], ["averageLOI", 1e400], ["sampleSize", BIG_DIGITS]] as const
    ) {
      const r = await add(childProjectBody(parent, { [field]: value }));
      assertEquals(r.status, 400, `${field} ${String(value).slice(0, 10)}: ${r.text}`);
    }
    const cpi = await add(childProjectBody(parent, { cpi: 1e308 }));
    assertEquals(cpi.json.message, "CPI must be at most 1000000");
    const map = await t.api(Maps.saveSupplierMapCall, {
      token,
      body: { projectId: child._id, supplierId: supplier._id, supplierClickQuota: 1.5 },
    });
    assertEquals([map.status, map.json.message], [400, "Only digits are allowed for this field "]);
    const quota = await t.api(P.updateProjectCall, {
      params: { id: child._id },
      token,
      raw: `{"respondentClickQuota": ${BIG_DIGITS}}`,
    });
    assertEquals(quota.status, 400, quota.text);
    const lists: [AnyContract, ApiInput<AnyContract>][] = [
      [P.listProjects, {}],
      [P.listChildProjects, { params: { id: parent._id } }],
      [Cl.listClients, {}],
    ];
    for (const [call, input] of lists) {
      const ok = await t.api(call, { ...input, token, body: { status: true } });
      assertEquals(ok.status, 200, `${call.path} status true: ${ok.text}`);
      const deep = await t.api(call, { ...input, token, body: { pageNo: 1e308 } });
      assertEquals([deep.status, deep.json.message], [400, "pageNo must be at most 1000000"], call.path);
    }
  } finally {
    await t.close();
  }
});
