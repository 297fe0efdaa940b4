/**
 * The Support Identifiers export over a FILE database (so written by the export worker, as in
 * production): it streams (the download begins before its last rows are even read: rows written
 * after the first bytes arrived are in it), it counts exactly (every session of a listed supplier
 * identifier, and of a listed user identifier once), and an export cancelled midway ends cleanly.
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import { identifierDateTime } from "../../shared/api/support.ts";
import { csvLine, csvLines } from "../../server/http/csv.ts";

const RESPONDENTS = 300;
const SURVEYS = 10;

async function dataset() {
  const dir = await Deno.makeTempDir({ prefix: "samplex-export-test-" });
  const t = await testApp({ DATABASE_URL: `file:${dir}/export.db` });
  const setup = await liveProject(t, { child: { sampleSize: 0 } });
  const db = t.deps.db;
  await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${sql.lit(SURVEYS - 1)})
    INSERT INTO projects (id, projectType, parentProjectId, projectCode, projectName, clientId, projectStatus,
      createdAt, updatedAt, statusChangedAt)
    SELECT printf('7b%022x', i), 2, ${setup.parent._id}, printf('EXP%05d', i), 'Export survey ' || i,
      ${setup.child.clientId}, 4, '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z'
    FROM n`.execute(db);
  const session = (id: string, project: string, sid: string) =>
    sql`INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status,
      createdAt, updatedAt) VALUES (${id}, ${project}, ${setup.parent._id}, ${setup.child.clientId}, ${setup.mapId},
      ${setup.supplierId}, ${sid}, 'complete', '2026-10-02T10:00:00.000Z', '2026-10-02T10:20:00.000Z')`;
  await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${
    sql.lit(RESPONDENTS * SURVEYS - 1)
  })
    INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status,
      createdAt, updatedAt)
    SELECT printf('7a%022x', i), printf('7b%022x', i / ${sql.lit(RESPONDENTS)}), ${setup.parent._id},
      ${setup.child.clientId}, ${setup.mapId}, ${setup.supplierId}, printf('P%04d', i % ${
    sql.lit(RESPONDENTS)
  }),
      'terminate', '2026-10-02T10:00:00.000Z', '2026-10-02T10:20:00.000Z'
    FROM n`.execute(db);
  // a respondent listed by user identifier alone, and one listed by both (counted once)
  await session("7c0000000000000000000001", "7b0000000000000000000000", "not-listed").execute(db);
  const token = await t.tokenFor("ADMIN");
  const lines = [
    ...Array.from({ length: RESPONDENTS }, (_, i) => `P${String(i).padStart(4, "0")}`),
    "ZZZ-late",
    "7c0000000000000000000001",
    "7a0000000000000000000000",
  ];
  const request = () =>
    t.app.request("/api/v1/admin/identifiers/report", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ identifierData: lines.join("\n") }),
    });
  return { t, dir, session, request };
}

const rowsOf = (text: string) => text.split("\r\n").filter(Boolean).length - 1;

Deno.test("identifiers export: streams from a worker (rows written after the first bytes are in it) and counts exactly", async () => {
  const { t, dir, session, request } = await dataset();
  try {
    const res = await request();
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "text/csv; charset=utf-8");
    const reader = res.body!.getReader();
    const dec = new TextDecoder("utf-8", { ignoreBOM: true });
    const first = await reader.read();
    assert(!first.done);
    let text = dec.decode(first.value, { stream: true });
    assert(text.startsWith("\uFEFFProject code,"), text.slice(0, 40));
    // the export is under way: a respondent listed last (in identifier order) enters three surveys now
    for (let i = 0; i < 3; i++) {
      await session(
        `7d00000000000000000000${i}0`,
        `7b00000000000000000000${String(i).padStart(2, "0")}`,
        "ZZZ-late",
      )
        .execute(t.deps.db);
    }
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
    }
    // every session of the 300 supplier identifiers, the 3 late ones, the uid-only one; the session
    // listed by both its sid and its uid once
    assertEquals(rowsOf(text), RESPONDENTS * SURVEYS + 3 + 1);
    assertEquals(text.split("\r\n").filter((l) => l.includes(",ZZZ-late,")).length, 3);
    assertEquals(text.split("\r\n").filter((l) => l.includes(",7a0000000000000000000000,")).length, 1);
    // grouped by supplier identifier, in arrival order within each
    const sids = text.split("\r\n").slice(1).filter(Boolean).map((l) => l.split(",")[3]);
    assertEquals(sids.slice(0, SURVEYS), Array(SURVEYS).fill("P0000"));
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("identifiers export: a download cancelled midway ends cleanly; the next export is whole", async () => {
  const { t, dir, request } = await dataset();
  try {
    const first = await request();
    const reader = first.body!.getReader();
    await reader.read();
    await reader.cancel();
    const again = await (await request()).text();
    assertEquals(rowsOf(again), RESPONDENTS * SURVEYS + 1);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

/** How a date was shown before the export rearranged stored text: through a Date, in UTC. */
function dateTimeByDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }:${pad(d.getUTCSeconds())}`;
}

Deno.test("identifiers export: a date rearranged from its stored text reads as its Date did, for any text", () => {
  const texts: (string | null | undefined)[] = [
    null,
    undefined,
    "",
    "garbage",
    "2026-10-02",
    "2026-10-02T10:00:00",
  ];
  // stored timestamps over centuries (leap days, month ends, midnight), with and without milliseconds
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 3000; i++) {
    const iso = new Date(Date.UTC(1000, 0, 1) + Math.floor(next() * 8999 * 365.25 * 86_400_000))
      .toISOString();
    texts.push(iso, iso.replace(/\.\d+Z$/, "Z"));
  }
  texts.push(
    "2024-02-29T23:59:59.999Z", // a leap day
    "2026-02-29T10:00:00.000Z", // no such day: a Date rolls it over to 1 March
    "2100-02-29T10:00:00Z",
    "2000-02-29T10:00:00Z",
    "2026-04-31T10:00:00Z",
    "2026-01-01T24:00:00Z", // 24:00 is the next day's midnight
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-01-00T00:00:00Z",
    "2026-01-01T10:60:00Z",
    "2026-01-01T10:00:60Z",
    "2026-01-01T10:00:00.1234567Z",
    "2026-01-01T10:00:00+02:00",
    "0999-12-31T23:59:59.000Z",
    "0099-01-01T00:00:00Z",
    "+012026-01-01T00:00:00.000Z",
    " 2026-01-01T10:00:00Z",
    "2026-01-01T10:00:00.Z",
    "2026-01-01T10:00:00.12aZ",
    "2026-01-01T1a:00:00Z",
    "20x6-01-01T10:00:00Z",
    "2026-01-01T10:00:00ZZ",
    "2026-01-01 10:00:00Z",
  );
  for (const t of texts) assertEquals(identifierDateTime(t), dateTimeByDate(t), String(t));
});

Deno.test("identifiers export: a page's CSV (csvLines) is the rows' csvLine, cell for cell", () => {
  type R = { a: unknown; b: unknown };
  const columns = [
    { header: "A", value: (r: R) => r.a },
    { header: "B", value: (r: R) => r.b },
    { header: "AB", value: (r: R) => `${r.a}|${r.b}` },
  ];
  const cells: unknown[] = [
    "plain",
    "",
    null,
    undefined,
    0,
    -1.5,
    "=SUM(A1)",
    "+1",
    "-2",
    "@x",
    "\tx",
    "\rx",
    'say "hi"',
    "a,b",
    "line\nbreak",
    "é 😀 ü",
    "'already",
    new Date(Date.UTC(2026, 0, 2)),
    { k: "v,w" },
    true,
  ];
  const rows: R[] = cells.flatMap((a) => cells.map((b) => ({ a, b })));
  assertEquals(csvLines(columns, rows), rows.map((r) => csvLine(columns.map((c) => c.value(r)))).join(""));
  assertEquals(csvLines(columns, []), "");
  // neutralised and quoted as before: a formula-looking cell gets a quote, a quote is doubled
  assertEquals(csvLine(["=1", 'a"b', "x,y", "-", 7]), `'=1,"a""b","x,y",'-,7\r\n`);
});
