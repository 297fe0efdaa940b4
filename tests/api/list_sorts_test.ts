/**
 * Header sorting, server side (issue 25, item 3): every sort a list declares in shared/api orders
 * its rows both ways, and a sort it does not declare is a 400 that names the declared ones, never a
 * 500 and never silently ignored (a header asking for an unknown sort would show an unsorted list).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeChild, makeClient, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import type { ListDeclaration } from "../../shared/list.ts";
import { API } from "../../shared/permissions.ts";
import type { Role } from "../../shared/roles.ts";
import * as accounts from "../../shared/api/accounts.ts";
import * as clients from "../../shared/api/clients.ts";
import * as library from "../../shared/api/library.ts";
import * as portal from "../../shared/api/portal.ts";
import * as projects from "../../shared/api/projects.ts";
import * as providers from "../../shared/api/providers.ts";
import * as reconcile from "../../shared/api/reconcile.ts";
import * as reports from "../../shared/api/reports.ts";
import * as suppliers from "../../shared/api/suppliers.ts";
import * as support from "../../shared/api/support.ts";
import * as systemLog from "../../shared/api/system-log.ts";
import * as users from "../../shared/api/users.ts";

const isList = (x: unknown): x is ListDeclaration<unknown> =>
  !!x && typeof x === "object" && "call" in x && "sorts" in x && "columns" in x && "filters" in x;

/** Every list declared in shared/api. */
const MODULES: Record<string, unknown>[] = [
  accounts,
  clients,
  library,
  portal,
  projects,
  providers,
  reconcile,
  reports,
  suppliers,
  support,
  systemLog,
  users,
];
const LISTS = [
  ...MODULES.flatMap((m) => Object.values(m).filter(isList)),
  // the five provider tabs' lists, declared together
  ...(Object.values(providers.OFFER_LISTS) as unknown as ListDeclaration<unknown>[]),
];

/** The report tab a report list is (its `type`: "complete-allocated-report" is completeAllocated). */
const reportKind = (list: ListDeclaration<unknown>) =>
  list.call.path === reports.projectReportData.path
    ? list.id.replace(/-report$/, "").replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
    : undefined;

/** Whether `later` may follow `earlier` in a list ordered `dir` (SQLite: NULLs first ascending). */
function inOrder(earlier: unknown, later: unknown, dir: "asc" | "desc") {
  if (earlier === null || earlier === undefined || later === null || later === undefined) return true;
  const [a, b] = dir === "asc" ? [earlier, later] : [later, earlier];
  return typeof a === "number" && typeof b === "number" ? a <= b : String(a) <= String(b);
}

Deno.test("every declared sort orders its list both ways; an undeclared one is a 400 naming the sorts", async () => {
  const t = await testApp();
  try {
    const tokens = new Map<Role, string>();
    /** A token of a role the permission table lets make the call. */
    const tokenFor = async (method: string, path: string) => {
      const roles = API[`${method} ${path}`];
      const role = roles.includes("SUPERADMIN") ? "SUPERADMIN" : roles[0];
      if (!tokens.has(role)) tokens.set(role, await t.tokenFor(role));
      return tokens.get(role)!;
    };
    const client = await makeClient(t);
    const supplier = await makeSupplier(t);
    await makeSupplier(t, { supplierName: "Alpha Panels" });
    const parent = await makeParent(t, { clientId: client._id, projectName: "Zebra Study" });
    await makeChild(t, parent, { projectName: "Mango Wave" });
    await makeChild(t, parent, { projectName: "Apple Wave", countryId: "CA" });
    assert(LISTS.length >= 25, `found ${LISTS.length} declared lists`);

    let sorted = 0;
    for (const list of LISTS) {
      const path = list.call.path.replace(
        /:([A-Za-z]+)/g,
        (_, param: string) => /supplier/i.test(param) ? supplier._id : parent._id,
      );
      const token = await tokenFor(list.call.method, list.call.path);
      const call = (body: Record<string, unknown>) =>
        t.call(list.call.method, path, {
          token,
          body: { pageNo: 1, limit: 100, type: reportKind(list), ...body },
        });

      for (const sortBy of list.sorts) {
        for (const sortDir of ["asc", "desc"] as const) {
          const r = await call({ sortBy, sortDir });
          assertEquals(r.status, 200, `${list.id} ${sortBy} ${sortDir}: ${r.text}`);
          const rows = (r.json.result?.data ?? []) as Record<string, unknown>[];
          for (let i = 1; i < rows.length; i++) {
            assert(
              inOrder(rows[i - 1][sortBy], rows[i][sortBy], sortDir),
              `${list.id} by ${sortBy} ${sortDir}: ${rows[i - 1][sortBy]} before ${rows[i][sortBy]}`,
            );
          }
          sorted++;
        }
      }

      for (const sortBy of ["passwordHash", "nope; DROP", "constructor", "__proto__"]) {
        const r = await call({ sortBy, sortDir: "asc" });
        assertEquals(r.status, 400, `${list.id} sortBy ${sortBy}: ${r.text}`);
        assertEquals(r.json.errors?.[0]?.path, "sortBy", list.id);
        const message = String(r.json.message);
        for (const key of list.sorts) assert(message.includes(key), `${list.id}: ${message} names ${key}`);
      }
    }
    assert(sorted >= 100, `${sorted} sorts checked`);
  } finally {
    await t.close();
  }
});
