/**
 * The domain's one calling shape (issue #22 item 2): the registrar hands each handler the call's
 * domain context (`ctx`: the deps and, behind a session, the signed-in actor), the HTTP layer holds
 * no SQL of its own (the record-exists look-ups are the domain's), and the HTTP layer's errors and
 * the domain's do not share a name.
 */
import { Hono } from "hono";
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { Api } from "../../server/http/api.ts";
import type { AppEnv } from "../../server/http/context.ts";
import { httpErrorOf } from "../../server/http/errors.ts";
import { type Contract, returns } from "../../shared/api/contract.ts";
import * as httpErrors from "../../server/http/errors.ts";
import * as domainErrors from "../../server/domain/errors.ts";

const root = new URL("../..", import.meta.url).pathname;

// two calls of this test's own (the permission table has no entry for them, so no defineCall)
const publicCall: Contract<"GET", "/probe/public"> = {
  key: "GET /probe/public",
  method: "GET",
  path: "/probe/public",
  result: returns<unknown>(),
  public: true,
  roles: [],
};
const sessionCall: Contract<"GET", "/probe/session"> = {
  key: "GET /probe/session",
  method: "GET",
  path: "/probe/session",
  result: returns<unknown>(),
  roles: ["ADMIN"],
};

Deno.test("registrar: a call behind a session gets ctx with the deps and the signed-in actor; a public call's ctx has no actor", async () => {
  const t = await testApp();
  try {
    const api = new Api();
    api.handle(publicCall, ({ ctx, deps }) => {
      let threw = false;
      try {
        ctx.actor;
      } catch {
        threw = true;
      }
      return {
        threw,
        db: ctx.db === deps.db,
        now: ctx.now === deps.now,
        spreadHasActor: "actor" in { ...ctx },
      };
    });
    api.handle(sessionCall, ({ ctx, deps, actor }) => ({
      actor: ctx.actor,
      same: JSON.stringify(ctx.actor) === JSON.stringify(actor()),
      db: ctx.db === deps.db,
      env: ctx.env === deps.env,
    }));
    const app = new Hono<AppEnv>();
    app.use("*", async (c, next) => {
      c.set("deps", t.deps);
      await next();
    });
    app.onError((e, c) => {
      const h = httpErrorOf(e);
      return h ? c.json({ message: h.message }, h.status) : c.json({ message: "fault" }, 500);
    });
    app.route("/", api.app);

    const pub = await (await app.request("/probe/public")).json();
    assertEquals(pub.result, { threw: true, db: true, now: true, spreadHasActor: false });

    const admin = await t.userWith("ADMIN");
    const res = await app.request("/probe/session", { headers: { authorization: `Bearer ${admin.token}` } });
    assertEquals(res.status, 200);
    const got = (await res.json()).result;
    assertEquals(got.actor.userId, admin.id);
    assertEquals(got.actor.name, "TestADMIN User");
    assertEquals([got.same, got.db, got.env], [true, true, true]);
  } finally {
    await t.close();
  }
});

Deno.test("http layer: no SQL of its own (record look-ups live in the domain)", async () => {
  const found: string[] = [];
  for await (const e of Deno.readDir(`${root}server/http`)) {
    if (!e.isFile || !e.name.endsWith(".ts")) continue;
    const src = await Deno.readTextFile(`${root}server/http/${e.name}`);
    if (
      /from\s+["']kysely["']|\bsql`|\.selectFrom\(|\.insertInto\(|\.updateTable\(|\.deleteFrom\(/.test(src)
    ) {
      found.push(e.name);
    }
  }
  assertEquals(found, [], "server/http files that query the database");
});

Deno.test("errors: the HTTP layer's error makers and the domain's share no name", () => {
  const http = Object.keys(httpErrors).filter((k) =>
    typeof (httpErrors as Record<string, unknown>)[k] === "function"
  );
  const domain = new Set(Object.keys(domainErrors));
  assert(http.length > 3 && domain.size > 5, "both modules were read");
  assertEquals(http.filter((k) => domain.has(k)), [], "names exported by both");
});

/**
 * The exported functions of server/domain that still take five or more positional parameters, with
 * why. Everything else is `fn(ctx, input)` (or as few plain arguments): a new function with a long
 * positional list fails here. Names no longer found are ignored (prune them when their area moves).
 */
const LONG_LISTS_LEFT: Record<string, string> = {
  // server/domain/router: the hot path's pure functions (reconcile and accounts take (ctx, input))
  verifyReturnSignature: "router: the hot path's pure signature check",
  evaluate: "router: the hot path's pure pre-screen evaluation",
  // ops: the backup schedule and task leases are boot-time machinery (the scheduler's), not calls
  runScheduledBackup: "ops",
  startScheduledBackups: "ops",
  takeLease: "ops",
};

/** How many parameters a parameter list's text holds (top-level commas; types may nest). */
export function countParams(list: string): number {
  let depth = 0, count = 0, any = false;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === "=" && list[i + 1] === ">") {
      i++;
      continue;
    }
    if ("([{<".includes(ch)) depth++;
    else if (")]}>".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      count++;
      any = false;
      continue;
    }
    if (!/\s/.test(ch)) any = true;
  }
  return count + (any ? 1 : 0);
}

/** Each exported function declaration of a source with its parameter count. */
export function exportedFunctions(source: string): { name: string; params: number }[] {
  const out: { name: string; params: number }[] = [];
  const src = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  for (const m of src.matchAll(/export\s+(?:async\s+)?function\s*\*?\s*(\w+)\s*(<)?/g)) {
    let i = m.index! + m[0].length;
    if (m[2]) { // skip the type parameters
      for (let d = 1; d > 0 && i < src.length; i++) {
        if (src[i] === "=" && src[i + 1] === ">") i++;
        else if (src[i] === "<") d++;
        else if (src[i] === ">") d--;
      }
    }
    i = src.indexOf("(", i);
    let depth = 0, j = i;
    for (; j < src.length; j++) {
      if (src[j] === "(") depth++;
      else if (src[j] === ")" && --depth === 0) break;
    }
    out.push({ name: m[1], params: countParams(src.slice(i + 1, j)) });
  }
  return out;
}

Deno.test("domain: no function takes five or more positional parameters (fn(ctx, input))", async () => {
  assertEquals(
    exportedFunctions(
      "export async function a(db: Db, x: { a: string; b: (t: Db, n: string) => Promise<void> }, y = [1, 2]) {}\n" +
        "export function b<T extends Record<string, () => void>>(a: T, b: Map<string, number>, c, d, e) {}",
    ),
    [{ name: "a", params: 3 }, { name: "b", params: 5 }],
    "the parameter counter",
  );
  const long: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts")) {
        for (const f of exportedFunctions(await Deno.readTextFile(path))) {
          if (f.params >= 5 && !(f.name in LONG_LISTS_LEFT)) {
            long.push(`${path.slice(root.length)} ${f.name}`);
          }
        }
      }
    }
  };
  await walk(`${root}server/domain`);
  assertEquals(long, [], "take (ctx, input): ctx the deps and the actor, input one object");
});
