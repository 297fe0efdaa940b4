/**
 * One contract per call (design.md section 4): every call the server registers is declared in
 * shared/api/, every declared call is registered, and no web feature spells an API path.
 */
import { assertEquals } from "../helpers/assert.ts";
import { Api } from "../../server/http/api.ts";
import { registerRoutes } from "../../server/routes/index.ts";
import type { AnyContract } from "../../shared/api/contract.ts";
import { API, SCREENS } from "../../shared/permissions.ts";

const root = new URL("../..", import.meta.url).pathname;

async function declaredContracts(): Promise<Map<string, AnyContract>> {
  const out = new Map<string, AnyContract>();
  for await (const e of Deno.readDir(`${root}shared/api`)) {
    if (!e.name.endsWith(".ts") || e.name === "contract.ts") continue;
    const mod = await import(`../../shared/api/${e.name}`);
    for (const value of Object.values(mod)) {
      const c = value as AnyContract;
      if (c && typeof c === "object" && typeof c.key === "string" && Array.isArray(c.roles)) {
        if (out.has(c.key) && out.get(c.key) !== c) throw new Error(`${c.key} is declared twice`);
        out.set(c.key, c);
      }
    }
  }
  return out;
}

Deno.test("contracts: every registered call is declared in shared/api and every declared call is registered", async () => {
  const api = new Api();
  registerRoutes(api);
  const declared = await declaredContracts();
  if (declared.size < 40) throw new Error(`only ${declared.size} contracts found`);
  assertEquals(api.registered.filter((k) => !declared.has(k)), [], "registered without a contract");
  assertEquals(
    [...declared.keys()].filter((k) => !api.registered.includes(k)),
    [],
    "declared, not registered",
  );
  // every call of the permission table is built: declared by a contract and registered
  assertEquals(Object.keys(API).filter((k) => !declared.has(k)), [], "in the permission table, no contract");
  // roles come from the one permission table
  for (const c of declared.values()) {
    if (!c.public) assertEquals(c.roles, API[c.key], c.key);
  }
});

/** The API paths as patterns matching a whole literal (`:id` or `${...}` for a parameter). */
function apiPathPatterns(): RegExp[] {
  return Object.keys(API).map((key) => {
    const path = key.split(" ")[1];
    const body = path.split("/").map((seg) =>
      seg.startsWith(":") ? "(?:\\$\\{[^}]+\\}|[^/\"'`$]+)" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    ).join("/");
    return new RegExp(`^${body}(?:\\?[^"'\`]*)?$`);
  });
}

const screenPatterns = SCREENS.map((s) =>
  new RegExp(`^${s.path.split("/").map((seg) => (seg.startsWith(":") ? "[^/]+" : seg)).join("/")}$`)
);

/** String and template literals in a source that are an API path (screen routes excepted). */
export function apiPathLiterals(source: string): string[] {
  const patterns = apiPathPatterns();
  const found: string[] = [];
  for (const m of source.matchAll(/(["'`])(\/(?:admin|supplier)\/[^"'`\s]*)\1/g)) {
    const literal = m[2];
    if (screenPatterns.some((p) => p.test(literal.split("?")[0]))) continue;
    if (patterns.some((p) => p.test(literal))) found.push(literal);
  }
  return found;
}

Deno.test("contracts: no file of the web app spells an API path", async () => {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${root}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.(ts|tsx)$/.test(e.name)) {
        for (const literal of apiPathLiterals(await Deno.readTextFile(`${root}${path}`))) {
          found.push(`${path}: ${literal}`);
        }
      }
    }
  };
  await walk("web/src");
  assertEquals(found, []);
});

Deno.test("contracts: the path check finds API paths and leaves screen routes alone", () => {
  assertEquals(
    apiPathLiterals(
      'api.get("/admin/clients/all"); put(`/admin/client/update/${c._id}`); navigate("/admin/client/add"); ' +
        'to={`/admin/client/${c._id}/edit`}; x("/admin/user/supplier"); y("/admin/user/add?role=SUPPLIER")',
    ),
    ["/admin/clients/all", "/admin/client/update/${c._id}"],
  );
});
