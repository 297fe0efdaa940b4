/** server/db/list.ts: allow-listed filters and sorts, literal search, counting and paging. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import {
  applyListFilters,
  applyListOrder,
  escapeLike,
  iterateList,
  type ListSpec,
  runList,
} from "../../server/db/list.ts";
import { usersListQuery, usersListSpec } from "../../server/domain/users/users.ts";
import type { ListBody } from "../../shared/list.ts";

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

Deno.test("filters: unknown keys are ignored and never reach the SQL; unset values are ignored", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const evil = "role = 'x' OR 1=1; DROP TABLE users; --";
    const filtered = applyListFilters(
      q,
      body({ filter: { [evil]: "BDE", passwordHash: "x", nope: 1 } }),
      usersListSpec,
    );
    const compiled = filtered.compile();
    assert(!compiled.sql.includes("DROP") && !compiled.sql.includes("passwordHash"), compiled.sql);
    assertEquals(compiled.parameters.includes("BDE"), false);
    assertEquals((await filtered.execute()).length, NAMES.length);

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
    const unknown = applyListOrder(q, body({ sortBy: "passwordHash", sortDir: "asc" }), usersListSpec);
    assert(!unknown.compile().sql.includes("passwordHash"));
    assertEquals(names(await unknown.execute()), [...NAMES].reverse(), "default: newest first");
  }));

Deno.test("runList: total, limit and pageNo; the limit is capped; pages cover every row once", () =>
  withUsers(async (db) => {
    const q = usersListQuery(db, "staff");
    const map = (r: { firstName: string }) => r.firstName;
    const p1 = await runList(q, body({ limit: 5 }), usersListSpec, map);
    assertEquals(p1.metadata, { total: 12, limit: 5, pageNo: 1 });
    const p2 = await runList(q, body({ limit: 5, pageNo: 2 }), usersListSpec, map);
    const p3 = await runList(q, body({ limit: 5, pageNo: 3 }), usersListSpec, map);
    assertEquals(p3.data.length, 2);
    assertEquals([...p1.data, ...p2.data, ...p3.data], [...NAMES].reverse());

    const filtered = await runList(q, body({ filter: { role: "BDE" }, limit: 2 }), usersListSpec, map);
    assertEquals(filtered.metadata.total, 4, "the count uses the same filters as the page");

    const capped = await runList(q, body({ limit: 1000 }), usersListSpec, map);
    assertEquals(capped.metadata.limit, 100);
    const small: ListSpec = { ...usersListSpec, maxLimit: 3 };
    assertEquals((await runList(q, body({ limit: 50 }), small, map)).data.length, 3);
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
      const page of iterateList(q, body({ limit: 5 }), usersListSpec, (r: { email: string }) => r.email)
    ) {
      pages.push(page);
    }
    const live = total - Math.ceil(total / 100);
    assertEquals(pages.map((p) => p.length), [1000, 1000, live - 2000]);
    const flat = pages.flat();
    assertEquals(new Set(flat).size, live, "no row twice, none missing");
    assertEquals(flat[0], `u${total - 1}@list.test`, "newest first, as in the grid");
    assert(!flat.includes("u100@list.test"), "deleted rows are not exported");
  } finally {
    await handle.close();
  }
});
