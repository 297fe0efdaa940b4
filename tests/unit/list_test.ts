/**
 * server/db/list.ts: allow-listed filters and sorts, literal search (LIKE and trigram index alike),
 * bounded counting and paging.
 */
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import {
  applyListFilters,
  applyListOrder,
  escapeLike,
  FTS_MAX_TRIGRAMS,
  FTS_PHRASE_MAX,
  ftsQuery,
  iterateList,
  type ListSpec,
  planSearch,
  runList,
  type SearchPlan,
} from "../../server/db/list.ts";
import { rebuildSearchIndexes, refreshPlannerStats } from "../../server/db/maintenance.ts";
import { sql } from "kysely";
import { usersListQuery, usersListSpec } from "../../server/domain/users/users.ts";
import { type ListBody, MAX_SEARCH } from "../../shared/list.ts";
import { DomainError } from "../../server/domain/errors.ts";

const body = (b: Partial<ListBody> = {}): ListBody => ({
  filter: {},
  search: "",
  pageNo: 1,
  limit: 10,
  ...b,
});

const NAMES = [
  "Alice",
  "Bob_Smith",
  "Carol",
  "100% Dan",
  "Eve\\Back",
  "Frank",
  "Grace",
  "Heidi",
  "Ivan",
  "Judy",
  "Ken",
  "Liam",
];

async function withUsers(fn: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<void>) {
  const handle = await openDatabase(":memory:");
  try {
    await migrateToLatest(handle.db);
    await handle.db.insertInto("users").values(NAMES.map((name, i) => ({
      id: i.toString(16).padStart(24, "0"),
      firstName: name,
      lastName: "Tester",
      email: `${name.toLowerCase().replace(/[^a-z]/g, "")}@list.test`,
      phoneNumber: "",
      role: i % 3 === 0 ? "BDE" : "MANAGER",
      supplierId: null,
      passwordHash: "x",
      isActive: i % 4 === 0 ? 0 : 1,
      isDeleted: 0,
      createdAt: `2026-01-${String(i + 1).padStart(2, "0")}T00:00:00.000Z`,
      updatedAt: "2026-01-01T00:00:00.000Z",
    }))).execute();
    await fn(handle.db);
  } finally {
    await handle.close();
  }
}

const names = (rows: { firstName: string }[]) => rows.map((r) => r.firstName);

Deno.test("escapeLike: %, _ and the escape character itself are escaped", () => {
  assertEquals(escapeLike("100%"), "100\\%");
  assertEquals(escapeLike("a_b"), "a\\_b");
  assertEquals(escapeLike("back\\slash"), "back\\\\slash");
  assertEquals(escapeLike("plain text"), "plain text");
});

Deno.test("search: % and _ match themselves, not anything", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const search = async (s: string) =>
      names(await applyListFilters(q, body({ search: s }), usersListSpec).execute());
    assertEquals(await search("%"), ["100% Dan"]);
    assertEquals(await search("_"), ["Bob_Smith"]);
    assertEquals(await search("\\"), ["Eve\\Back"]);
    assertEquals(await search("b_s"), ["Bob_Smith"]);
    assertEquals(await search("a%"), [], "no wildcard: 'a%' is not 'a anything'");
    assertEquals((await search("")).length, NAMES.length);
    assertEquals((await search("   ")).length, NAMES.length, "blank search is no search");
    assertEquals(await search("ALICE"), ["Alice"], "case-insensitive for ASCII");
  }));

Deno.test("filters: an unknown key is refused (400 naming the list's filters), never reaching the SQL; unset values are ignored", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const evil = "role = 'x' OR 1=1; DROP TABLE users; --";
    const filters: ListBody["filter"][] = [{ [evil]: "BDE" }, { passwordHash: "x" }, {
      role: "BDE",
      nope: 1,
    }];
    for (const filter of filters) {
      const key = Object.keys(filter).at(-1)!;
      let refused: unknown = null;
      try {
        applyListFilters(q, body({ filter }), usersListSpec);
      } catch (e) {
        refused = e;
      }
      assert(refused instanceof DomainError && refused.kind === "invalid", `${key}: ${refused}`);
      assertEquals(refused.errors?.[0]?.path, `filter.${key}`);
      assert(refused.message.startsWith(`Unknown filter "${key}": this list filters on `), refused.message);
    }
    // null is "not set": a key the list does not have, unset, is no filter at all
    assertEquals(
      (await applyListFilters(q, body({ filter: { nope: null } }), usersListSpec).execute()).length,
      NAMES.length,
    );

    for (const unset of [null, "", []]) {
      const r = await applyListFilters(q, body({ filter: { role: unset } }), usersListSpec).execute();
      assertEquals(r.length, NAMES.length, `role ${JSON.stringify(unset)} is not a filter`);
    }
    const bde = await applyListFilters(q, body({ filter: { role: "BDE" } }), usersListSpec).execute();
    assertEquals(names(bde).sort(), ["100% Dan", "Alice", "Grace", "Judy"]);
    const any = await applyListFilters(q, body({ status: "any" }), usersListSpec).execute();
    assertEquals(any.length, NAMES.length);
    const inactive = await applyListFilters(q, body({ status: false }), usersListSpec).execute();
    assertEquals(names(inactive).sort(), ["Alice", "Eve\\Back", "Ivan"]);
  }));

Deno.test("sorts: only allow-listed keys order the rows; the default order keeps paging stable", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const byName = await applyListOrder(q, body({ sortBy: "name", sortDir: "asc" }), usersListSpec).execute();
    assertEquals(names(byName), [...NAMES].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    assertThrows(() => applyListOrder(q, body({ sortBy: "passwordHash", sortDir: "asc" }), usersListSpec));
    assertThrows(() => applyListOrder(q, body({ sortBy: "toString", sortDir: "asc" }), usersListSpec));
    assertEquals(
      names(await applyListOrder(q, body({}), usersListSpec).execute()),
      [...NAMES].reverse(),
      "default: newest first",
    );
  }));

Deno.test("runList: total, limit and pageNo; the limit is capped; pages cover every row once", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const map = (r: { firstName: string }) => r.firstName;
    const p1 = await runList(db, q, body({ limit: 5 }), usersListSpec, map);
    assertEquals(p1.metadata, { total: 12, limit: 5, pageNo: 1 });
    const p2 = await runList(db, q, body({ limit: 5, pageNo: 2 }), usersListSpec, map);
    const p3 = await runList(db, q, body({ limit: 5, pageNo: 3 }), usersListSpec, map);
    assertEquals(p3.data.length, 2);
    assertEquals([...p1.data, ...p2.data, ...p3.data], [...NAMES].reverse());

    const filtered = await runList(db, q, body({ filter: { role: "BDE" }, limit: 2 }), usersListSpec, map);
    assertEquals(filtered.metadata.total, 4, "the count uses the same filters as the page");

    const capped = await runList(db, q, body({ limit: 1000 }), usersListSpec, map);
    assertEquals(capped.metadata.limit, 100);
    const small: ListSpec = { ...usersListSpec, maxLimit: 3 };
    assertEquals((await runList(db, q, body({ limit: 50 }), small, map)).data.length, 3);
  }));

Deno.test("runList: totals past the count window are a round lower bound with more; count exact gives the figure", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const map = (r: { firstName: string }) => r.firstName;
    const spec: ListSpec = { ...usersListSpec, countWindow: 5 };
    const page = (pageNo: number, extra: Partial<ListBody> = {}) =>
      runList(db, q, body({ limit: 2, pageNo, ...extra }), spec, map);

    const p1 = await page(1);
    assertEquals(p1.metadata, { total: 5, limit: 2, pageNo: 1, more: true }, "12 rows, counted to 5");
    assertEquals(p1.data, ["Liam", "Ken"]);
    const p3 = await page(3);
    assertEquals(
      p3.metadata,
      { total: 10, limit: 2, pageNo: 3, more: true },
      "the window moves with the page",
    );
    assertEquals(p3.data, ["Heidi", "Grace"]);
    const p5 = await page(5);
    assertEquals(p5.metadata, { total: 12, limit: 2, pageNo: 5 }, "the end is in the window: exact, no more");
    const p7 = await page(7);
    assertEquals([p7.data, p7.metadata.total, p7.metadata.more], [[], 12, undefined], "past the end");

    const exact = await page(1, { count: "exact" });
    assertEquals(exact, { data: [], metadata: { total: 12, limit: 2, pageNo: 1 } });
    const exactBde = await page(1, { count: "exact", filter: { role: "BDE" } });
    assertEquals(exactBde.metadata.total, 4, "the exact count uses the same filters");
    const few = await page(1, { filter: { role: "BDE" } });
    assertEquals(few.metadata, { total: 4, limit: 2, pageNo: 1 }, "within the window the total is exact");
    const exactly5 = await runList(db, q, body({ limit: 2, status: true }), { ...spec, countWindow: 9 }, map);
    assertEquals(
      exactly5.metadata,
      { total: 9, limit: 2, pageNo: 1 },
      "9 active rows in a window of 9: exact",
    );
  }));

const SEARCH_TERMS = [
  "alice",
  "ALICE",
  "tester",
  "list.test",
  "b_s",
  "100%",
  "% d",
  "eve\\b",
  'a"b',
  "ice@li",
  "ra",
  "x",
  "nobody here",
];

Deno.test("search: the trigram index finds exactly what LIKE finds, for every kind of term", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const find = async (search: string, plan: SearchPlan) =>
      names(
        await applyListOrder(
          applyListFilters(q, body({ search }), usersListSpec, plan),
          body(),
          usersListSpec,
        )
          .execute(),
      );
    for (const term of SEARCH_TERMS) {
      const like = await find(term, { kind: "like" });
      assertEquals(await find(term, { kind: "fts" }), like, `index, term ${JSON.stringify(term)}`);
      const planned = await planSearch(db, body({ search: term }), usersListSpec);
      assertEquals(await find(term, planned), like, `${planned.kind}, term ${JSON.stringify(term)}`);
    }
    assertEquals(
      await find("tester", { kind: "fts" }),
      [...NAMES].reverse(),
      "a common term finds every row",
    );
    assertEquals(await find("ice@li", { kind: "fts" }), ["Alice"], "across the name of an address");
    const sql = applyListFilters(q, body({ search: "alice" }), usersListSpec, { kind: "fts" }).compile().sql;
    assert(sql.includes("users_fts"), "3+ characters use the index");
    const short = applyListFilters(q, body({ search: "al" }), usersListSpec, { kind: "fts" }).compile().sql;
    assert(!short.includes("users_fts") && short.includes("like"), "shorter terms fall back to LIKE");
  }));

Deno.test("search: a long term asks the index for a few trigrams, LIKE checks the rows: same rows as LIKE", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const find = async (search: string, plan: SearchPlan) =>
      names(
        await applyListOrder(
          applyListFilters(q, body({ search }), usersListSpec, plan),
          body(),
          usersListSpec,
        )
          .execute(),
      );
    const terms = [
      "alice@list.test",
      "ALICE@LIST.TEST",
      "alice@list.tes",
      "ice@list.test",
      // every trigram of these is in an e-mail of the list, the whole term in none
      "@list.test@list.test",
      "list.testlist.test",
      "carol@list.testt",
      "100% Dan Tester",
      "Bob_Smith Tester".toLowerCase(),
      "Bob%Smith Tester",
      "x".repeat(MAX_SEARCH),
    ];
    for (const term of terms) {
      const like = await find(term, { kind: "like" });
      assertEquals(await find(term, { kind: "fts" }), like, `index, term ${JSON.stringify(term)}`);
      const planned = await planSearch(db, body({ search: term }), usersListSpec);
      assertEquals(await find(term, planned), like, `${planned.kind}, term ${JSON.stringify(term)}`);
    }
    assertEquals(await find("@list.test@list.test", { kind: "fts" }), [], "the LIKE check drops near misses");
    assertEquals(await find("alice@list.test", { kind: "fts" }), ["Alice"]);
  }));

Deno.test("ftsQuery: a phrase up to a dozen characters, then a bounded set of trigrams whatever the length", () => {
  assertEquals(ftsQuery("ab"), null, "under 3 characters: no index");
  assertEquals(ftsQuery('a"b'), { match: '"a""b"', exact: true }, "one trigram");
  assertEquals(ftsQuery("alice"), { match: '"ali" AND "lic" AND "ice"', exact: false }, "ASCII: LIKE checks");
  assertEquals(ftsQuery("müll"), { match: '"müll"', exact: true }, "beyond ASCII: a phrase, case folded");
  assertEquals(ftsQuery("é".repeat(FTS_PHRASE_MAX))?.exact, true);
  assertEquals(ftsQuery("é".repeat(FTS_PHRASE_MAX + 1)), { match: '"ééé"', exact: false });
  for (const n of [4, FTS_PHRASE_MAX + 1, 50, 100, 1_000, 100_000]) {
    for (
      const term of [
        "a".repeat(n),
        "ab".repeat(n).slice(0, n),
        Array.from({ length: n }, (_, i) => String.fromCharCode(33 + (i * 7919) % 90)).join(""),
      ]
    ) {
      const q = ftsQuery(term)!;
      assertEquals(q.exact, false);
      const parts = q.match.split(" AND ");
      assert(parts.length <= FTS_MAX_TRIGRAMS, `${parts.length} trigrams for ${n} characters`);
      assert(q.match.length <= FTS_MAX_TRIGRAMS * 12, `query of ${q.match.length} characters for ${n}`);
      for (const part of parts) assert(term.includes(part.slice(1, -1).replaceAll('""', '"')), part);
    }
  }
  const spread = ftsQuery("abcdefghijklmnopqrstuvwxyz")!.match;
  assert(spread.startsWith('"abc"') && spread.endsWith('"xyz"'), `first and last trigrams: ${spread}`);
});

Deno.test("search: a term over MAX_SEARCH characters or with a NUL is refused (400), never planned", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    for (const search of ["a".repeat(MAX_SEARCH + 1), "a".repeat(60_000), "ab\0cd"]) {
      let refused: unknown;
      try {
        await runList(db, q, body({ search }), usersListSpec, (r) => r);
      } catch (e) {
        refused = e;
      }
      assert(refused instanceof DomainError && refused.kind === "invalid", `${search.length}: ${refused}`);
      let escaped: unknown;
      try {
        escapeLike(search);
      } catch (e) {
        escaped = e;
      }
      assert(escaped instanceof DomainError && escaped.kind === "invalid", "pickers' LIKE too");
    }
    assertEquals(
      (await runList(db, q, body({ search: "é".repeat(MAX_SEARCH) }), usersListSpec, (r) => r)).data,
      [],
    );
  }));

Deno.test("planSearch: the index for rare terms and deep pages, LIKE for common terms and short ones", () =>
  withUsers(async (db) => {
    const spec: ListSpec = { ...usersListSpec, fts: { ...usersListSpec.fts!, rareBelow: 3, commonAt: 10 } };
    const plan = async (search: string, offset = 0, s = spec) =>
      (await planSearch(db, body({ search }), s, offset)).kind;
    assertEquals(await plan(""), "none");
    assertEquals(await plan("   "), "none");
    assertEquals(await plan("al"), "like", "too short for trigrams");
    assertEquals(await plan("alice"), "rows", "1 match: rare, the probe's rows are the answer");
    const alice = await planSearch(db, body({ search: "alice" }), spec);
    assertEquals(alice.kind === "rows" && alice.rowids.length, 1);
    assertEquals(
      await plan("list.t"),
      "like",
      "12 matches, 10 make a term common: scan in order and stop early",
    );
    assertEquals(await plan("list.t", 5_000), "fts", "a deep page would scan too far: the index");
    assertEquals(await plan("ra"), "like");
    assertEquals(await plan("ran"), "rows", "Frank: rare");
    assertEquals(await plan("a"), "like");
    assertEquals(await plan("n@l"), "fts", "dan, ivan, ken: neither rare nor common");
    assertEquals(await plan("alice", 0, { ...spec, fts: undefined }), "like", "a list without an index");
  }));

Deno.test("search index: follows inserts, renames and deletes; a rebuild re-reads the table", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const find = async (search: string) =>
      names(await applyListFilters(q, body({ search }), usersListSpec, { kind: "fts" }).execute());
    await db.updateTable("users").set({ firstName: "Zebulon", email: "zeb@list.test" })
      .where("firstName", "=", "Alice").execute();
    assertEquals(await find("alice"), [], "the old name is gone from the index");
    assertEquals(await find("zebul"), ["Zebulon"]);
    await db.updateTable("users").set({ isActive: 0 }).where("firstName", "=", "Zebulon").execute();
    assertEquals(await find("zebul"), ["Zebulon"], "other columns changing leaves the entry alone");
    await db.deleteFrom("users").where("firstName", "=", "Zebulon").execute();
    assertEquals(await find("zebul"), []);
    await db.insertInto("users").values({
      id: "f".repeat(24),
      firstName: "Quentin",
      lastName: "Newcomer",
      email: "quentin@list.test",
      phoneNumber: "+44 20 7946 0958",
      role: "BDE",
      supplierId: null,
      passwordHash: "x",
      isActive: 1,
      isDeleted: 0,
      createdAt: "2026-02-01T00:00:00.000Z",
      updatedAt: "2026-02-01T00:00:00.000Z",
    }).execute();
    assertEquals(await find("7946 09"), ["Quentin"], "phone numbers are searched too");
    await db.updateTable("users").set({ lastName: "Müller" }).where("firstName", "=", "Quentin").execute();
    for (const term of ["MÜLLER", "müll", "Mül"]) {
      const planned = await planSearch(db, body({ search: term }), usersListSpec);
      const hits = names(await applyListFilters(q, body({ search: term }), usersListSpec, planned).execute());
      assertEquals(hits, ["Quentin"], `${term}: any letter's case`);
    }
    assertEquals(await rebuildSearchIndexes(db), { system_logs_fts: 0, users_fts: NAMES.length });
    assertEquals(await find("quent"), ["Quentin"], "the rebuilt index answers the same");
    assertEquals(await refreshPlannerStats(db), true);
    const stats = await sql<{ idx: string }>`select idx from sqlite_stat1 where tbl = 'users'`.execute(db);
    assert(stats.rows.some((r) => r.idx === "users_list"), "statistics for the grid's index");
  }));

Deno.test("multi-line search: one exact value per line or comma, others ignored", () =>
  withUsers(async (db) => {
    const spec: ListSpec = { ...usersListSpec, multiSearch: ["email"] };
    const q = usersListQuery(db, "staff");
    const r = await applyListFilters(
      q,
      body({ filter: { multiSearch: "alice@list.test\r\n\n  carol@list.test ,nobody@list.test,ali" } }),
      spec,
    ).execute();
    assertEquals(names(r).sort(), ["Alice", "Carol"]);
  }));

Deno.test("iterateList: every matching row, in pages of 1000, in order, ignoring the grid's limit", async () => {
  const handle = await openDatabase(":memory:");
  try {
    await migrateToLatest(handle.db);
    const total = 2_345;
    for (let start = 0; start < total; start += 500) {
      await handle.db.insertInto("users").values(
        Array.from({ length: Math.min(500, total - start) }, (_, k) => {
          const i = start + k;
          return {
            id: i.toString(16).padStart(24, "0"),
            firstName: `User${i}`,
            lastName: "Export",
            email: `u${i}@list.test`,
            phoneNumber: "",
            role: "MANAGER",
            supplierId: null,
            passwordHash: "x",
            isActive: 1,
            isDeleted: i % 100 === 0 ? 1 : 0,
            createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
            updatedAt: "",
          };
        }),
      ).execute();
    }
    const pages: string[][] = [];
    const q = usersListQuery(handle.db, "staff");
    for await (
      const page of iterateList(
        handle.db,
        q,
        body({ limit: 5 }),
        usersListSpec,
        (r: { email: string }) => r.email,
      )
    ) {
      pages.push(page);
    }
    const live = total - Math.ceil(total / 100);
    assertEquals(pages.map((p) => p.length), [1000, 1000, live - 2000]);
    const flat = pages.flat();
    assertEquals(new Set(flat).size, live, "no row twice, none missing");
    assertEquals(flat[0], `u${total - 1}@list.test`, "newest first, as in the grid");
    assert(!flat.includes("u100@list.test"), "deleted rows are not exported");

    // the grid's order, search and filters hold across pages; the page's rows are the base query's
    const collect = async (b: Partial<ListBody>, spec: ListSpec, size = 7) => {
      const out: Record<string, unknown>[] = [];
      for await (
        const page of iterateList(handle.db, q, body(b), spec, (r: Record<string, unknown>) => r, size)
      ) {
        out.push(...page);
      }
      return out;
    };
    const byEmail = await collect({ sortBy: "email", sortDir: "desc", search: "User1" }, usersListSpec);
    const expected = flat.filter((e) => e.startsWith("u1")).sort().reverse();
    assertEquals(byEmail.map((r) => r.email), expected, "sorted, searched, in pages of 7");
    assertEquals(Object.keys(byEmail[0]).sort(), Object.keys(await q.executeTakeFirstOrThrow()).sort());
    const viaOffset = await collect(
      { sortBy: "email", sortDir: "desc", search: "User1" },
      { ...usersListSpec, rowid: undefined, fts: undefined },
    );
    assertEquals(viaOffset, byEmail, "the same rows as paging with OFFSET");
  } finally {
    await handle.close();
  }
});
