/**
 * Bad input against every declared call, generated from the contracts (`declaredCalls()`, the
 * registry the OpenAPI document is built from): signed in with a role allowed to make the call,
 * each call gets, per field of its body and query schema (found by walking the valibot schema),
 * a value of the wrong type, a string one past its maximum (the schema's `maxLength`, else 100,000
 * characters), unicode (emoji, RTL, combining marks), control characters (NUL, an escape
 * sequence), float extremes (1e308, -1e308, "NaN", -0, 2**53+1), SQL and HTML injection text, an id
 * of no record in a field that declares the record it names, an unknown key in a list's filter;
 * plus a missing body, unknown fields, negative and non-numeric pages and limits, unknown and
 * malformed path ids, and portal ids of another supplier.
 *
 * Every answer of 400 and above must be a 4xx with a JSON `{ message }`. Cases that are bad input
 * by any reading (wrong type, too long, control characters, float extremes, bad pages, unknown ids
 * and filter keys) must be refused;
 * the others (unicode, injection text, unknown fields) may be taken as the valid input they can be.
 * A refused request must change nothing: every table's row count and checksum is compared before
 * and after (per call for the must-refuse group, per request for the others), and the table list
 * with it, so injected SQL that ran would show.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type ApiInput, type Call, type TestApp, testApp } from "../helpers/app.ts";
import { declaredCalls } from "../../server/openapi.ts";
import type { AnyContract } from "../../shared/api/contract.ts";
import type { Role } from "../../shared/roles.ts";
import { sql } from "kysely";
import { childProjectBody, makeChild, makeClient, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import { clientBody, qualificationBody, questionBody, supplierBody } from "../helpers/master.ts";
import { day, readyProject } from "../helpers/accounts.ts";
import * as Acc from "../../shared/api/accounts.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as Portal from "../../shared/api/portal.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as Prov from "../../shared/api/providers.ts";
import * as Supp from "../../shared/api/support.ts";
import * as SMap from "../../shared/api/supplier-maps.ts";

// ------------------------------------------------------------------ the schemas, walked

type S = Record<string, unknown>;
const isSchema = (x: unknown): x is S => !!x && typeof x === "object" && (x as S).kind === "schema";

/**
 * The object entries a body or query schema takes (through pipes, unions, lazies, optionals); a lazy
 * schema is asked with `input` (the call's base body: a child project's form, not a group's).
 */
function entriesOf(schema: unknown, seen = new Set<unknown>(), input: unknown = {}): Record<string, S> {
  if (!isSchema(schema) || seen.has(schema)) return {};
  seen.add(schema);
  const out: Record<string, S> = {};
  if (schema.entries && typeof schema.entries === "object") Object.assign(out, schema.entries);
  if (schema.type === "lazy" && typeof schema.getter === "function") {
    Object.assign(out, entriesOf((schema.getter as (x: unknown) => unknown)(input), seen, input));
  }
  if (isSchema(schema.wrapped)) Object.assign(out, entriesOf(schema.wrapped, seen, input));
  if (Array.isArray(schema.options)) {
    for (const o of schema.options) {
      for (const [k, e] of Object.entries(entriesOf(o, seen, input))) out[k] ??= e;
    }
  }
  return out;
}

/** Whether a field is (through optionals and pipes) a record: a list's `filter`. */
function recordOf(s: S, depth = 0): boolean {
  if (depth > 6) return false;
  if (s.type === "record" || s.type === "loose_object") return true;
  return isSchema(s.wrapped) && recordOf(s.wrapped, depth + 1);
}

type Kind = "string" | "number" | "boolean" | "array" | "object" | "other";

/**
 * What a field takes: its kinds (a union may take several), the longest string it takes, and the
 * kind of record it names when it declares one (`refersTo`, shared/schemas/refs.ts), itself or its items.
 */
function shapeOf(
  schema: unknown,
): { kinds: Set<Kind>; max?: number; items?: Set<Kind>; names?: string; itemNames?: string } {
  const kinds = new Set<Kind>();
  let max: number | undefined;
  let items: Set<Kind> | undefined;
  let names: string | undefined;
  let itemNames: string | undefined;
  const walk = (s: unknown, depth: number) => {
    if (!isSchema(s) || depth > 8) return;
    const type = String(s.type);
    if (
      type === "string" || type === "number" || type === "boolean" || type === "array" || type === "object"
    ) {
      kinds.add(type);
    } else if (type === "picklist" || type === "literal" || type === "enum") {
      const opts = (s.options as unknown[] | undefined) ?? [s.literal];
      for (const o of opts) {
        kinds.add(typeof o === "number" ? "number" : typeof o === "boolean" ? "boolean" : "string");
      }
    } else if (type === "record") kinds.add("object");
    else if (!["optional", "nullable", "nullish", "exact_optional", "union", "lazy"].includes(type)) {
      kinds.add("other");
    }
    if (Array.isArray(s.pipe)) {
      for (const a of s.pipe as S[]) {
        const container = ["array", "record", "object", "tuple", "strict_object", "loose_object"].includes(
          type,
        );
        if (a?.type === "max_length" && typeof a.requirement === "number" && !container) {
          max = Math.max(max ?? 0, a.requirement);
        }
        if (typeof a?.refersTo === "string") names = a.refersTo;
      }
    }
    if (type === "array" && isSchema(s.item)) ({ kinds: items, names: itemNames } = shapeOf(s.item));
    if (isSchema(s.wrapped)) walk(s.wrapped, depth + 1);
    if (Array.isArray(s.options) && type === "union") { for (const o of s.options) walk(o, depth + 1); }
    if (type === "lazy" && typeof s.getter === "function") {
      walk((s.getter as (x: unknown) => unknown)(""), depth + 1);
    }
  };
  walk(schema, 0);
  return { kinds, max, items, names, itemNames };
}

// ------------------------------------------------------------------ the cases

const UNICODE = "Zoë 😀👩‍👩‍👧 עברית العربية e\u0301\u0308 \u202Etxt";
const NUL = "ab\u0000cd";
const ESC = "red \u001b[31mtext\u001b[0m";
const SQLI = "x' OR '1'='1'; DROP TABLE users; --";
const HTML = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const UNKNOWN_ID = "0123456789abcdef01234567";

/** mustTake: legitimately valid input that must get a normal answer (a search for SQL text). */
type Case = { label: string; raw: string; mustRefuse: boolean; mustTake?: boolean };

function withField(base: Record<string, unknown>, field: string, rawValue: string): string {
  const parts = Object.entries(base).filter(([k]) => k !== field).map(([k, v]) =>
    `${JSON.stringify(k)}:${JSON.stringify(v)}`
  );
  parts.push(`${JSON.stringify(field)}:${rawValue}`);
  return `{${parts.join(",")}}`;
}

/** The cases of one body field, from what its schema takes. */
function fieldCases(base: Record<string, unknown>, field: string, schema: S): Case[] {
  const { kinds, max, items, names, itemNames } = shapeOf(schema);
  const out: Case[] = [];
  const add = (label: string, value: string, mustRefuse: boolean, mustTake = false) =>
    out.push({ label: `${field} ${label}`, raw: withField(base, field, value), mustRefuse, mustTake });
  // a search term is text like any other: SQL, HTML or unicode in it is searched for, not refused
  const searched = field === "search";
  // a value of a kind the field never takes
  if (!kinds.has("other")) {
    const wrong = !kinds.has("object") && !kinds.has("array")
      ? '{"$ne":1}'
      : !kinds.has("string")
      ? '"not-this-kind"'
      : !kinds.has("boolean")
      ? "true"
      : null;
    if (wrong) add("wrong type", wrong, true);
  }
  if (kinds.has("string")) {
    const n = max !== undefined && max <= 5_000_000 ? max + 1 : 100_000;
    add(`string of ${n}`, JSON.stringify("x".repeat(n)), true);
    add("unicode", JSON.stringify(UNICODE), false, searched);
    // control characters are refused in every text field (the text helpers, and the registrar after them)
    add("NUL", JSON.stringify(NUL), true);
    add("escape sequence", JSON.stringify(ESC), true);
    add("SQL text", JSON.stringify(SQLI), false, searched);
    add("HTML text", JSON.stringify(HTML), false, searched);
  }
  if (kinds.has("number") || /^(pageNo|limit)$/.test(field)) {
    add("1e308", "1e308", true);
    add("-1e308", "-1e308", true);
    add("2**53+1", String(2 ** 53 + 1), true);
    add('"NaN"', '"NaN"', !kinds.has("string"));
    add("-0", "-0", false);
  }
  if (kinds.has("array") && items?.has("string") && !kinds.has("string")) {
    add("item of 100000", JSON.stringify(["x".repeat(100_000)]), true);
    add("items of unicode, SQL", JSON.stringify([UNICODE, SQLI, HTML]), false);
    add("item with NUL", JSON.stringify([NUL]), true);
  }
  // an id the schema declares must name a record of its kind (checked by the registrar)
  if (names) add(`naming no ${names}`, JSON.stringify(UNKNOWN_ID), true);
  if (itemNames) add(`item naming no ${itemNames}`, JSON.stringify([UNKNOWN_ID]), true);
  // a list's filter takes the keys the list declares: any other is refused, not ignored
  if (field === "filter" && isSchema(schema) && recordOf(schema)) {
    add("unknown filter key", JSON.stringify({ zzUnknown: "x" }), true);
  }
  return out;
}

function bodyCases(contract: AnyContract, base: Record<string, unknown>): Case[] {
  const out: Case[] = [
    { label: "no body", raw: "", mustRefuse: false },
    { label: "empty object", raw: "{}", mustRefuse: false },
    { label: "not JSON", raw: '{"a":', mustRefuse: true },
    { label: "an array", raw: "[1,2]", mustRefuse: true },
    { label: "a string", raw: '"x"', mustRefuse: true },
    {
      label: "unknown fields",
      raw: JSON.stringify({ ...base, zzUnknown: 1, constructor: "x" }).replace(/}$/, ',"__proto__":{"x":1}}'),
      mustRefuse: false,
    },
  ];
  const entries = entriesOf(contract.body, new Set(), base);
  for (const [field, schema] of Object.entries(entries)) {
    if (field === "isDeleted") continue; // a soft delete would take the fixtures away from the calls after it
    out.push(...fieldCases(base, field, schema));
  }
  if ("pageNo" in entries) {
    for (
      const [label, raw] of [["pageNo -1", "-1"], ["pageNo 0", "0"], ["pageNo abc", '"abc"'], [
        "pageNo 1.5",
        "1.5",
      ]]
    ) {
      out.push({ label, raw: withField(base, "pageNo", raw), mustRefuse: true });
    }
    for (const [label, raw] of [["limit -5", "-5"], ["limit ten", '"ten"'], ["limit 0", "0"]]) {
      out.push({ label, raw: withField(base, "limit", raw), mustRefuse: true });
    }
  }
  return out;
}

/** Query cases: each field of the call's query schema, then pages and junk any call must shrug off. */
type QueryCase = { label: string; query: string; mustRefuse: boolean; mustTake?: boolean };
function queryCases(contract: AnyContract): QueryCase[] {
  const out: QueryCase[] = [];
  const q = (k: string, v: string) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
  for (const [field, schema] of Object.entries(entriesOf(contract.query))) {
    const { max } = shapeOf(schema);
    const n = max !== undefined && max <= 5_000_000 ? max + 1 : 100_000;
    out.push({ label: `?${field} of ${n}`, query: q(field, "x".repeat(n)), mustRefuse: true });
    const searched = field === "search";
    out.push({ label: `?${field} unicode`, query: q(field, UNICODE), mustRefuse: false, mustTake: searched });
    out.push({ label: `?${field} NUL`, query: q(field, NUL), mustRefuse: true });
    out.push({ label: `?${field} SQL`, query: q(field, SQLI), mustRefuse: false, mustTake: searched });
    out.push({ label: `?${field} HTML`, query: q(field, HTML), mustRefuse: false, mustTake: searched });
    out.push({ label: `?${field} 1e308`, query: q(field, "1e308"), mustRefuse: false });
    out.push({ label: `?${field} twice`, query: `${q(field, "a")}&${q(field, "b")}`, mustRefuse: false });
  }
  out.push({ label: "?pageNo=-1&limit=abc", query: "pageNo=-1&limit=abc&zz=%00", mustRefuse: false });
  return out;
}

// ------------------------------------------------------------------ the database, watched

/** FNV-1a over a string, as 8 hex digits. */
function fnv(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Each table's row count and content checksum, and the schema's own checksum (a dropped table shows). */
let snapMs = 0, snaps = 0;
async function snapshot(t: TestApp): Promise<Map<string, string>> {
  const t0 = performance.now();
  try {
    return await snapshotOf(t);
  } finally {
    snapMs += performance.now() - t0;
    snaps++;
  }
}
async function snapshotOf(t: TestApp): Promise<Map<string, string>> {
  const db = t.deps.db;
  const schema = await sql<{ name: string; type: string; sql: string | null }>`
    SELECT name, type, sql FROM sqlite_master ORDER BY name`.execute(db);
  const out = new Map<string, string>();
  out.set("(schema)", fnv(JSON.stringify(schema.rows)).toString(16));
  for (const { name, type } of schema.rows) {
    if (type !== "table" || name.startsWith("sqlite_")) continue;
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db);
    let h = 0x811c9dc5;
    for (const r of rows.rows) h = fnv(JSON.stringify(Object.values(r)), h);
    out.set(name, `${rows.rows.length}:${h.toString(16)}`);
  }
  return out;
}

/** Rows written on the app's one connection so far (SQLite's total_changes): the cheap per-request check. */
async function changes(t: TestApp): Promise<number> {
  const r = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(t.deps.db);
  return Number(r.rows[0].n);
}

function diff(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).map((k) => `${k} ${a.get(k)} -> ${b.get(k)}`);
}

// ------------------------------------------------------------------ the sweep

/** Calls left out, and why. */
const SKIP: Record<string, string> = {
  "POST /admin/logout": "ends the session the sweep runs on",
};
/** Tables a refused call may write by design. */
const MAY_WRITE: Record<string, string[]> = {
  // every sign-in attempt is counted before its password is checked (the throttle)
  "POST /admin/login": ["login_attempts", "login_throttle"],
};

Deno.test("every declared call, signed in with a role allowed to make it, refuses bad input with a 4xx { message } and changes nothing", async () => {
  const t = await testApp();
  const started = performance.now();
  try {
    // ---------------------------------------------------------- fixtures
    const admin = await t.tokenFor("SUPERADMIN");
    const client = await makeClient(t);
    const supplier = await makeSupplier(t);
    const otherSupplier = await makeSupplier(t);
    const parent = await makeParent(t, { clientId: client._id });
    const child = await makeChild(t, parent);
    const manager = await t.userWith("MANAGER");
    const made = async <K extends AnyContract>(call: K, input: ApiInput<K>) => {
      const r = await t.api(call, { ...input, token: admin });
      assertEquals(r.status, 200, `${call.key}: ${r.text}`);
      return r.result;
    };
    const map = await made(SMap.saveSupplierMapCall, {
      body: { projectId: child._id, supplierId: supplier._id },
    });
    const otherChild = await makeChild(t, parent);
    const otherMap = await made(SMap.saveSupplierMapCall, {
      body: {
        projectId: otherChild._id,
        supplierId: otherSupplier._id,
      },
    });
    const rule = await made(Lib.addSupplierRule, { body: { minSupplierCpi: 1, maxSupplierCpi: 2 } });
    const category = await made(Lib.addCategory, { body: { categoryTitle: "Auto", categoryDesc: "Cars" } });
    const question = await made(Lib.addTempQuestion, { body: questionBody() });
    const qualification = await made(Lib.addQualification, { body: qualificationBody() });
    const job = await made(Supp.addJobCall, { body: { projectCode: child.projectCode, interval: 60 } });
    const ready = await readyProject(t, {
      clientId: client._id,
      supplier: { _id: supplier._id, approved: 3, supplierCPI: 1 },
    });
    await made(Parts.addQuotaCall, {
      params: { projectId: child._id },
      body: { quotaId: qualification._id },
    });
    await made(Parts.addExclusionCall, { body: { projectId: child._id, excludedProjectId: otherChild._id } });
    await made(Acc.addInvoiceCall, {
      body: {
        clientId: client._id,
        netTerms: 30,
        currentDate: day(),
        dueDate: day(30),
        projects: [{
          projectId: ready._id,
          projectCode: ready.projectCode,
          projectName: ready.projectName,
          poNumber: "PO-7788",
          complete: 100,
          cpi: 2.5,
          total: 250,
        }],
      },
    });
    await made(Acc.addPurchaseOrderCall, { body: { supplierId: supplier._id } });
    const portal = await t.userWith("SUPPLIER", { supplierId: supplier._id, email: "portal@test.local" });
    const firstId = async (table: string) =>
      (await sql<{ id: string }>`SELECT id FROM ${sql.table(table)} LIMIT 1`.execute(t.deps.db)).rows[0]?.id;

    const tokens: Partial<Record<Role, string>> = { SUPPLIER: portal.token };
    const tokenOf = async (c: AnyContract): Promise<string | null> => {
      if (c.public) return null;
      const role = (["SUPERADMIN", "APIMANAGER", "SUPPLIER"] as Role[]).find((r) => c.roles.includes(r)) ??
        c.roles[0];
      tokens[role] ??= await t.tokenFor(role);
      return tokens[role]!;
    };
    const idOf: Record<string, () => Promise<string | undefined> | string | undefined> = {
      User: () => manager.id,
      Client: () => client._id,
      Supplier: () => supplier._id,
      Category: () => category._id,
      "Supplier rule": () => rule._id,
      Question: () => question._id,
      Qualification: () => qualification._id,
      Project: () => child._id,
      "Supplier map": () => map._id,
      "Scheduled job": () => job._id,
      Invoice: () => firstId("invoices"),
      "Purchase order": () => firstId("purchase_orders"),
      "Issuing company": () => firstId("issuing_companies"),
      Quota: () => firstId("project_quotas"),
      Exclusion: () => firstId("project_exclusions"),
    };
    const bases: Record<string, Record<string, unknown>> = {
      "POST /admin/client/add": clientBody(),
      "PUT /admin/client/update/:id": clientBody(),
      "POST /admin/supplier/add": supplierBody(),
      "PUT /admin/supplier/update/:id": supplierBody(),
      "POST /admin/project/add": childProjectBody(parent),
      "POST /admin/supplierMap/add": { projectId: child._id, supplierId: otherSupplier._id },
      "PUT /admin/supplierMap/update/:id": { projectId: child._id, supplierId: supplier._id },
      "POST /admin/supplier/rule/add": { minSupplierCpi: 1, maxSupplierCpi: 2 },
      "PUT /admin/supplier/rule/update/:id": { minSupplierCpi: 1, maxSupplierCpi: 2 },
      "POST /admin/question/temp/add": questionBody(),
      "POST /admin/qualification/add": qualificationBody(),
      "POST /admin/category/add": { categoryTitle: "Sweep", categoryDesc: "Sweep" },
      "POST /admin/user/add": {
        firstName: "Sweep",
        lastName: "User",
        email: "sweep@test.local",
        role: "MANAGER",
        password: "Passw0rd!",
      },
      "POST /admin/login": { email: "nobody@test.local", password: "wrong-password" },
      "POST /admin/schedule/job/add": { projectCode: child.projectCode, interval: 60 },
      "POST /admin/project/reconsile/:id": { type: 1, csv: "abc123\n" },
      "POST /admin/invoice/upload": { data: [["INV-0", "REF-1"]] },
      "POST /admin/invoice/supplier/upload": { data: [["PO-0", "REF-1"]] },
      "POST /supplier/project/supplier/report": { supplierMapId: map._id, projectId: child._id },
      "POST /admin/project/supplier/report": { supplierMapId: map._id, projectId: child._id },
      "POST /admin/identifiers/report": { identifierData: "abc123" },
      "POST /admin/cities": { countryId: "US" },
      "POST /admin/project/report/data": { type: "client" },
      "POST /admin/project/report/totals": { type: "client" },
    };
    // a body field that names a record: the fixture's id (so the other fields' cases get past it)
    const fieldIds: Record<string, string> = {
      projectId: child._id,
      clientId: client._id,
      supplierId: supplier._id,
      supplierMapId: map._id,
      parentProjectId: parent._id,
    };

    const failures: string[] = [];
    let sent = 0, calls = 0;
    const check = (key: string, label: string, r: Call, mustRefuse: boolean, mustTake = false) => {
      sent++;
      // an external provider without URL and key says so (502): the server's set-up, not the input
      const unconfigured = r.status === 502 && /is not configured/.test(r.json?.message ?? "");
      if (unconfigured && mustRefuse) failures.push(`${key} [${label}]: got past validation to the provider`);
      else if (unconfigured) return;
      else if (r.status >= 500) failures.push(`${key} [${label}]: ${r.status} ${r.text.slice(0, 160)}`);
      else if (r.status >= 400 && typeof r.json?.message !== "string") {
        failures.push(`${key} [${label}]: ${r.status} without a { message }: ${r.text.slice(0, 120)}`);
      } else if (mustRefuse && r.status < 400) {
        failures.push(`${key} [${label}]: taken (${r.status}) where it must be refused`);
      } else if (mustTake && r.status >= 400) {
        failures.push(
          `${key} [${label}]: refused (${r.status} ${r.json?.message}) where it is a valid search`,
        );
      }
    };
    const unchanged = (key: string, label: string, a: Map<string, string>, b: Map<string, string>) => {
      const allowed = MAY_WRITE[key] ?? [];
      const d = diff(a, b).filter((x) => !allowed.includes(x.split(" ")[0]));
      if (d.length) failures.push(`${key} [${label}]: refused, yet the database changed: ${d.join("; ")}`);
    };

    // the cheap per-request check sees the app's writes (it is the same connection)
    const firstSnapshot = await snapshot(t);
    const c0 = await changes(t);
    await makeClient(t);
    assert(await changes(t) > c0, "total_changes() does not see the app's writes");

    const ordered = declaredCalls().map((d) => d.contract)
      .sort((a, b) => Number(a.public ?? false) - Number(b.public ?? false)); // sign-in last
    for (const contract of ordered) {
      if (SKIP[contract.key]) continue;
      calls++;
      const key = contract.key;
      const token = await tokenOf(contract);
      const params: Record<string, string> = {};
      for (const [, name] of contract.path.matchAll(/:(\w+)/g)) {
        const record = (contract.ids as Record<string, string> | undefined)?.[name];
        params[name] = name === "projectCode"
          ? child.projectCode
          : (record ? await idOf[record]?.() : undefined) ?? UNKNOWN_ID;
      }
      const pathWith = (p: Record<string, string>) =>
        contract.path.replace(/:(\w+)/g, (_, n) => encodeURIComponent(p[n]));
      const path = pathWith(params);
      // the sweep walks every contract itself, with hand-made paths (ids of no record, malformed ones)
      const send = (raw: string | undefined, query = "", at = path) =>
        t.call(contract.method, query ? `${at}?${query}` : at, { token, raw: raw === "" ? undefined : raw });

      const base: Record<string, unknown> = { ...(bases[key] ?? {}) };
      for (const f of Object.keys(entriesOf(contract.body))) {
        if (f in fieldIds && !(f in base) && key !== "POST /admin/supplierMap/add") base[f] = fieldIds[f];
      }
      if (key.startsWith("PUT /admin/project/update")) delete base.projectId;

      // path ids: unknown, malformed and injected ones are that record not found
      const refusals: { label: string; mustTake?: boolean; run: () => Promise<Call> }[] = [];
      const bodyFor = contract.body ? JSON.stringify(base) : undefined;
      for (const name of Object.keys(contract.ids ?? {})) {
        for (
          const [label, value] of [["unknown", UNKNOWN_ID], ["malformed", "abc"], ["SQL", "1' OR '1'='1"]]
        ) {
          refusals.push({
            label: `:${name} ${label}`,
            run: () => send(bodyFor, "", pathWith({ ...params, [name]: value })),
          });
        }
      }
      const either: { label: string; mustTake?: boolean; run: () => Promise<Call> }[] = [];
      if (contract.body && contract.method !== "GET") {
        for (const c of bodyCases(contract, base)) {
          (c.mustRefuse ? refusals : either).push({
            label: c.label,
            mustTake: c.mustTake,
            run: () => send(c.raw),
          });
        }
      }
      if (contract.query || contract.method === "GET") {
        for (const c of queryCases(contract)) {
          (c.mustRefuse ? refusals : either).push({
            label: c.label,
            mustTake: c.mustTake,
            run: () => send(contract.method === "GET" ? undefined : bodyFor, c.query),
          });
        }
      }

      // must be refused: run a few at a time, every table compared once around them
      const before = await snapshot(t);
      const answers: [string, Call][] = [];
      for (let i = 0; i < refusals.length; i += 6) {
        const batch = refusals.slice(i, i + 6);
        answers.push(
          ...await Promise.all(batch.map(async (c) => [c.label, await c.run()] as [string, Call])),
        );
      }
      for (const [label, r] of answers) check(key, label, r, true);
      const after = await snapshot(t);
      if (answers.every(([, r]) => r.status >= 400)) unchanged(key, "refused cases", before, after);
      // injected SQL never ran: no table, index or trigger went away
      assertEquals(before.get("(schema)"), after.get("(schema)"), `${key}: the schema changed`);
      // may be taken: one at a time; a refused one must have written no row
      for (const c of either) {
        const c0 = await changes(t);
        const r = await c.run();
        check(key, c.label, r, false, c.mustTake);
        if (r.status >= 400) {
          const written = await changes(t) - c0;
          if (written && !MAY_WRITE[key]) {
            failures.push(`${key} [${c.label}]: refused, yet ${written} rows written`);
          }
        }
      }
    }
    const schemaAfter = await snapshot(t);
    assertEquals(schemaAfter.get("(schema)"), firstSnapshot.get("(schema)"), "the schema changed");
    assert((await sql<{ n: number }>`SELECT count(*) AS n FROM users`.execute(t.deps.db)).rows[0].n > 0);

    // the portal: another supplier's map and project are refused, and nothing changes
    const before = await snapshot(t);
    const portalCase = async <K extends AnyContract>(call: K, input: ApiInput<K>) => {
      const r = await t.api(call, { ...input, token: portal.token });
      check(`${call.key} ${JSON.stringify(input)}`, "another supplier's record", r, true);
    };
    const report = Portal.supplierPortalReportCall, start = Portal.startInventoryProjectCall;
    await portalCase(report, { body: { supplierMapId: otherMap._id, projectId: otherChild._id } });
    await portalCase(report, { body: { supplierMapId: otherMap._id, projectId: child._id } });
    await portalCase(report, { body: { supplierMapId: map._id, projectId: otherChild._id } });
    await portalCase(start, { params: { id: otherMap._id }, body: {} });
    await portalCase(start, {
      params: { id: ready.childId },
      body: { redirectComplete: "https://x.example/?sid=[sid]" },
    });
    unchanged("portal", "another supplier's records", before, await snapshot(t));

    const seconds = (performance.now() - started) / 1000;
    console.log(
      `contract sweep: ${calls} calls, ${sent} requests, ${seconds.toFixed(1)} s; ${snaps} snapshots ${
        (snapMs / 1000).toFixed(1)
      } s`,
    );
    assertEquals(failures, [], `${failures.length} problems among ${sent} requests:\n${failures.join("\n")}`);
    assert(calls >= 150, `only ${calls} calls swept`);
  } finally {
    await t.close();
  }
});

Deno.test("what the sweep found: well-formed ids of no record are 404, provider ids past 2^53 and unbounded project ids are 400", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    // these answered 200 with an empty list or zero figures for a project or supplier that is not there
    for (
      const [r, what] of [
        [await t.api(Proj.childOptionsCall, { params: { parentProjectId: UNKNOWN_ID }, token }), "Project"],
        [await t.api(SMap.supplierStatsCall, { params: { projectId: UNKNOWN_ID }, token }), "Project"],
        [
          await t.api(Acc.listSupplierProjects, { params: { supplierId: UNKNOWN_ID }, token, body: {} }),
          "Supplier",
        ],
      ] as const
    ) {
      assertEquals([r.status, r.json?.message], [404, `${what} not found`], what);
    }
    // a survey id past 2^53 was rounded to another survey's id and sent to the provider
    const api = await t.tokenFor("APIMANAGER");
    for (const surveyId of [2 ** 53 + 1, 1e308, -5]) {
      const r = await t.api(Prov.addPrecisionOffer, {
        token: api,
        bad: { surveyId, clientId: (await makeClient(t))._id, countryCode: "US" },
      });
      assertEquals(r.status, 400, `${surveyId}: ${r.text}`);
    }
    // the supplier-maps list took a project id of any length
    const long = await t.api(SMap.listSupplierMapsCall, {
      token,
      bad: { projectId: "x".repeat(100_000) },
    });
    assertEquals([long.status, long.json.message], [400, "Project is required"]);
  } finally {
    await t.close();
  }
});
