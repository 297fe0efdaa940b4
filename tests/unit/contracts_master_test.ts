/**
 * The master-data areas on contracts: every call declared in shared/api/{session,users,lookups,
 * suppliers,library,email,system-log}.ts is registered by its area's routes (once, from the
 * contract), and the web files of these areas spell no API path.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { Api } from "../../server/http/api.ts";
import { sessionRoutes } from "../../server/routes/session.ts";
import { userRoutes } from "../../server/routes/users.ts";
import { lookupRoutes } from "../../server/routes/lookups.ts";
import { supplierRoutes } from "../../server/routes/suppliers.ts";
import { libraryRoutes } from "../../server/routes/library.ts";
import { emailRoutes } from "../../server/routes/email.ts";
import { systemLogRoutes } from "../../server/routes/system-log.ts";
import * as session from "../../shared/api/session.ts";
import * as users from "../../shared/api/users.ts";
import * as lookups from "../../shared/api/lookups.ts";
import * as suppliers from "../../shared/api/suppliers.ts";
import * as library from "../../shared/api/library.ts";
import * as email from "../../shared/api/email.ts";
import * as systemLog from "../../shared/api/system-log.ts";

type Declared = { key: string; roles: readonly string[]; path: string; method: string };
const isContract = (x: unknown): x is Declared =>
  !!x && typeof x === "object" && "key" in x && "roles" in x && "method" in x && "path" in x;

Deno.test("master-data contracts: each declared call is registered exactly once by its area", () => {
  const api = new Api();
  for (
    const register of [
      sessionRoutes,
      userRoutes,
      lookupRoutes,
      supplierRoutes,
      libraryRoutes,
      emailRoutes,
      systemLogRoutes,
    ]
  ) {
    register(api);
  }
  const declared = [session, users, lookups, suppliers, library, email, systemLog]
    .flatMap((m) => Object.values(m).filter(isContract))
    .map((c) => c.key);
  assert(declared.length >= 40, `only ${declared.length} calls declared`);
  assertEquals([...new Set(declared)].sort(), [...new Set(api.registered)].sort());
  assertEquals(api.registered.length, new Set(api.registered).size, "a call registered twice");
  assertEquals(session.loginCall.roles, [], "login is the one public call");
});

const WEB = new URL("../../web/src/", import.meta.url);
const AREAS = [
  "features/auth",
  "features/users",
  "features/suppliers",
  "features/library",
  "components",
  "features/dashboard",
  "app",
  "lib",
];
/** A legacy call spelled with a path: api.get/post/put("..."), requestBlob, a list or picker `path:`. */
const LEGACY = /\bapi\.(get|post|put)\s*[(<]|\brequestBlob\s*\(|^\s*path:\s*["'`]\/(admin|supplier)\//m;

Deno.test("master-data web files call the API through contracts only (no path spelled)", async () => {
  const offenders: string[] = [];
  for (const area of AREAS) {
    for await (const f of walk(new URL(`${area}/`, WEB))) {
      // the client itself, and the form kit's legacy branch (kept while projects move; the lead drops it)
      if (/\/(lib\/api|lib\/save-record)\.ts$/.test(f.pathname)) continue;
      const text = await Deno.readTextFile(f);
      if (LEGACY.test(text)) offenders.push(f.pathname.slice(WEB.pathname.length));
    }
  }
  assertEquals(offenders, []);
});

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const e of Deno.readDir(dir)) {
    const u = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) yield* walk(u);
    else if (/\.tsx?$/.test(e.name)) yield u;
  }
}
