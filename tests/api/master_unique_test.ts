/**
 * Codes that name one live record (client codes, supplier short codes, qualification keys, user
 * e-mails) are held by partial unique indexes, not only by the domains' checks before writing: a
 * duplicate that races past the check is refused by the database and answers the check's own 409.
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { clientBody, created, supplierBody } from "../helpers/master.ts";
import { MSG } from "../../shared/messages.ts";
import { httpErrorOf } from "../../server/http/errors.ts";
import * as Cl from "../../shared/api/clients.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Sup from "../../shared/api/suppliers.ts";

const INDEXES = [
  { table: "clients", column: "clientCode", index: "clients_code_live", message: MSG.clientCodeTaken },
  {
    table: "suppliers",
    column: "supplierShortCode",
    index: "suppliers_short_code_live",
    message: MSG.shortcodeTaken,
  },
  {
    table: "qualifications",
    column: "qualificationKey",
    index: "qualifications_key_live",
    message: MSG.qualificationKeyTaken,
  },
  { table: "users", column: "email", index: "users_email_live", message: MSG.emailTaken },
] as const;

async function withApp(fn: (t: TestApp, token: string) => Promise<void>) {
  const t = await testApp();
  try {
    await fn(t, await t.tokenFor("SUPERADMIN"));
  } finally {
    await t.close();
  }
}

/** Copies a live row with `column` set to `value` (the rest unique), straight into the table. */
async function insertCopy(t: TestApp, table: string, column: string, fromId: string, value: string) {
  const cols = (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(t.deps.db))
    .rows.map((r) => r.name);
  const pick = cols.map((c) =>
    c === "id"
      ? sql`'ffffffffffffffffffffffff'`
      : c === column
      ? sql`${value}`
      : c === "clientApiKey" || c === "supplierApiKey"
      ? sql`'copy-' || ${sql.ref(c)}`
      : sql.ref(c)
  );
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))})
    SELECT ${sql.join(pick)} FROM ${sql.table(table)} WHERE id = ${fromId}`.execute(t.deps.db);
}

Deno.test("unique codes: each is a partial unique index over live rows, case-insensitive where the check is", () =>
  withApp(async (t, token) => {
    for (const { table, index } of INDEXES) {
      const row = await sql<
        { sql: string }
      >`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ${index}`
        .execute(t.deps.db);
      const ddl = row.rows[0]?.sql ?? "";
      assert(/CREATE UNIQUE INDEX/i.test(ddl), `${index} is a unique index`);
      assert(ddl.includes(`ON ${table}(`), `${index} is on ${table}`);
      assert(/WHERE isDeleted = 0/.test(ddl), `${index} covers live rows only: ${ddl}`);
      // the codes are compared without case by the checks, and so by the indexes (e-mails are lowercased)
      if (table !== "users") assert(/COLLATE NOCASE/.test(ddl), `${index} ignores case: ${ddl}`);
    }

    const client = await created(t, token, Cl.addClient, clientBody({ clientCode: "ACME" }));
    const supplier = await created(t, token, Sup.addSupplier, supplierBody({ supplierShortCode: "PULSE" }));
    const qualification = await created(t, token, Lib.addQualification, {
      qualificationName: "Car Ownership",
      qualificationIcon: "car",
      qualificationOptions: [{ text: "Yes" }, { text: "No" }],
    });
    const user = await t.userWith("MANAGER");
    const cases = [
      { ...INDEXES[0], id: client._id, dup: "acme" },
      { ...INDEXES[1], id: supplier._id, dup: "pulse" },
      { ...INDEXES[2], id: qualification._id, dup: "CAR_OWNERSHIP" },
      { ...INDEXES[3], id: user.id, dup: user.email },
    ];
    for (const c of cases) {
      // a direct duplicate insert is refused, and reads as the check's own 409
      const err = await insertCopy(t, c.table, c.column, c.id, c.dup).then(() => null, (e) => e);
      assert(err, `${c.table}: a second live ${c.column} "${c.dup}" was accepted`);
      const conflict = httpErrorOf(err);
      assertEquals(conflict?.status, 409, `${c.table}: ${err}`);
      assertEquals(conflict?.message, c.message);
      assertEquals(conflict?.errors, [{ path: c.column, message: c.message }]);
      // a deleted row frees its code
      await sql`UPDATE ${sql.table(c.table)} SET isDeleted = 1 WHERE id = ${c.id}`.execute(t.deps.db);
      await insertCopy(t, c.table, c.column, c.id, c.dup);
    }
  }));

/**
 * A save racing another: a trigger hands the code to another live row after the domain's check has
 * passed and before the insert lands, as a second app instance on one libSQL server could.
 */
Deno.test("unique codes: a duplicate that races past the check is a 409 with the check's message, never a 500", () =>
  withApp(async (t, token) => {
    const racer = async (table: string, column: string, otherId: string, code: string) => {
      await sql.raw(`DROP TRIGGER IF EXISTS race`).execute(t.deps.db);
      await sql.raw(
        `CREATE TRIGGER race BEFORE INSERT ON ${table} WHEN NEW.${column} = '${code}'
         BEGIN UPDATE ${table} SET ${column} = lower(NEW.${column}) WHERE id = '${otherId}'; END`,
      ).execute(t.deps.db);
    };

    const other = await created(t, token, Sup.addSupplier, supplierBody({ supplierShortCode: "OTHER" }));
    await racer("suppliers", "supplierShortCode", other._id, "RACE");
    const s = await t.api(Sup.addSupplier, {
      token,
      body: supplierBody({ supplierShortCode: "RACE" }),
    });
    assertEquals(s.status, 409, s.text);
    assertEquals(s.json, {
      message: MSG.shortcodeTaken,
      errors: [{ path: "supplierShortCode", message: MSG.shortcodeTaken }],
    });

    const otherClient = await created(t, token, Cl.addClient, clientBody({ clientCode: "OTHER" }));
    await racer("clients", "clientCode", otherClient._id, "RACE");
    const c = await t.api(Cl.addClient, { token, body: clientBody({ clientCode: "RACE" }) });
    assertEquals(c.status, 409, c.text);
    assertEquals(c.json, {
      message: MSG.clientCodeTaken,
      errors: [{ path: "clientCode", message: MSG.clientCodeTaken }],
    });

    const otherQ = await created(t, token, Lib.addQualification, {
      qualificationName: "Other",
      qualificationIcon: "x",
      qualificationOptions: [{ text: "A" }, { text: "B" }],
    });
    await racer("qualifications", "qualificationKey", otherQ._id, "race");
    const q = await t.api(Lib.addQualification, {
      token,
      body: {
        qualificationName: "Race",
        qualificationIcon: "x",
        qualificationOptions: [{ text: "A" }, { text: "B" }],
      },
    });
    assertEquals(q.status, 409, q.text);
    assertEquals(q.json.message, MSG.qualificationKeyTaken);

    // nothing half-written: the refused saves left no rows
    for (const table of ["suppliers", "clients", "qualifications"]) {
      const n = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(t.deps.db);
      assertEquals(Number(n.rows[0].n), 1, table);
    }
  }));
