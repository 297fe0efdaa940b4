/**
 * Support > Identifiers: respondents looked up by supplier identifier (sid) or user identifier
 * (uid), thousands at once, across every project. The sid is served by the sessions_sid index
 * (migration 0008), the uid is the sessions' key; each line of the box is matched exactly against
 * both. An empty box finds nothing (never every respondent).
 */
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import type { ListBody } from "../../../shared/list.ts";
import { type IdentifierMatch, identifiersList } from "../../../shared/api/support.ts";
import { MAX_SEARCH_IDENTIFIERS, searchIdentifiers } from "../../../shared/schemas/support.ts";
import { sessionStatusLabel } from "../../../shared/status.ts";
import { countryByCode } from "../lookups/geo.ts";

/** The identifiers list: 100 a page (part 2, 9). */
export const IDENTIFIER_PAGE_SIZE = 100;

export const identifiersListSpec = listSpecOf(identifiersList, {
  multiSearch: ["s.sid", "s.id"],
  filters: {
    outcome: (qb, val) => {
      const list = (Array.isArray(val) ? val : [val]).map(String).filter(Boolean);
      return list.length ? qb.where("s.status", "in", list) : qb;
    },
  },
  sorts: { createdAt: "s.createdAt", projectCode: "p.projectCode" },
  defaultSort: [["s.createdAt", "desc"], ["s.id", "desc"]],
  rowid: "s.rowid",
  maxLimit: IDENTIFIER_PAGE_SIZE,
});

/** The sessions with their project and supplier; nothing at all without identifiers. */
export function identifiersQuery(db: Db, body: Pick<ListBody, "filter">): AnyQB {
  const text = body.filter?.multiSearch;
  const qb = sessionsWithNames(db);
  return typeof text === "string" && searchIdentifiers(text).length ? qb : qb.where(sql<boolean>`0`);
}

/** Every session with its project and supplier names, the Identifiers columns. */
function sessionsWithNames(db: Db) {
  return db.selectFrom("sessions as s")
    .innerJoin("projects as p", "p.id", "s.projectId")
    .leftJoin("suppliers as sup", "sup.id", "s.supplierId")
    .select([
      "s.id",
      "s.projectId",
      "s.sid",
      "s.createdAt",
      "s.updatedAt",
      "s.country",
      "s.ip",
      "s.deviceType",
      "s.browser",
      "s.status",
      "s.isTest",
      "p.projectCode",
      "p.projectName",
      "sup.supplierName",
    ]);
}

type Row = {
  id: string;
  projectId: string;
  sid: string;
  createdAt: string;
  updatedAt: string;
  country: string;
  ip: string;
  deviceType: string;
  browser: string;
  status: string;
  isTest: number;
  projectCode: string;
  projectName: string;
  supplierName: string | null;
};

export function identifierMatch(r: Row): IdentifierMatch {
  return pageMatch([
    r.id,
    r.projectId,
    r.sid,
    r.createdAt,
    r.updatedAt,
    r.country,
    r.ip,
    r.deviceType,
    r.browser,
    r.status,
    r.isTest,
    r.projectCode,
    r.projectName,
    r.supplierName,
    0,
  ]);
}

/** Identifiers of the export read together: the sessions of this many at a time (one query a page). */
const EXPORT_CHUNK = 200;
/** The columns of an export page, in the order its JSON rows hold them. */
const PAGE_COLUMNS = [
  "id",
  "projectId",
  "sid",
  "createdAt",
  "updatedAt",
  "country",
  "ip",
  "deviceType",
  "browser",
  "status",
  "isTest",
  "projectCode",
  "projectName",
  "supplierName",
  "rn",
] as const;

/** A row of an export page: PAGE_COLUMNS' values, in that order. */
type PageRow = [
  id: string,
  projectId: string,
  sid: string,
  createdAt: string,
  updatedAt: string,
  country: string,
  ip: string,
  deviceType: string,
  browser: string,
  status: string,
  isTest: number,
  projectCode: string,
  projectName: string,
  supplierName: string | null,
  rn: number,
];

/**
 * One page of the export: the sessions `where` selects, in `order`, with their names. The page
 * comes back as one JSON text built by SQLite (a row object per value is most of a large read's
 * cost in the driver), each row an array of PAGE_COLUMNS (`rn` the session's rowid).
 */
async function exportPage(
  db: Db,
  where: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
  limit: number,
): Promise<PageRow[]> {
  const { rows } = await sql<{ page: string | null }>`SELECT json_group_array(json_array(${
    sql.raw(PAGE_COLUMNS.join(", "))
  })) AS page FROM (SELECT s.id, s.projectId, s.sid, s.createdAt, s.updatedAt, s.country, s.ip,
      s.deviceType, s.browser, s.status, s.isTest, p.projectCode, p.projectName, sup.supplierName,
      s.rowid AS rn
    FROM sessions s INNER JOIN projects p ON p.id = s.projectId
    LEFT JOIN suppliers sup ON sup.id = s.supplierId
    WHERE ${where} ORDER BY ${order} LIMIT ${limit})`.execute(db);
  return JSON.parse(rows[0]?.page ?? "[]") as PageRow[];
}

/** A row of an export page (or of the list, identifierMatch) as the Identifiers row. */
function pageMatch(v: PageRow): IdentifierMatch {
  const country = countryByCode(v[5]);
  return {
    _id: v[0],
    projectId: v[1],
    projectCode: v[11],
    projectName: v[12],
    supplierName: v[13] ?? "",
    sid: v[2],
    uid: v[0],
    createdAt: v[3],
    updatedAt: v[4],
    countryCode: country?.code ?? v[5],
    countryName: country?.label ?? v[5],
    ipAddress: v[6],
    deviceType: v[7],
    browser: v[8],
    status: v[9],
    statusLabel: sessionStatusLabel(v[9]),
    isTest: !!v[10],
  };
}

/**
 * Every match of the identifiers, a page at a time (the export), in a million-row export's terms:
 * rows grouped by supplier identifier (in identifier order, then as they arrived), then the rows
 * found by user identifier alone. Each page is a keyset read on the sessions' sid index, (sid,
 * rowid) past the last row read, for a chunk of identifiers: nothing is sorted or held but the page,
 * and the last page costs what the first one does. A row matched by both its sid and its uid comes
 * once (with its sid).
 */
export async function* identifierMatchPages(
  db: Db,
  text: string,
  pageSize = 1000,
): AsyncGenerator<IdentifierMatch[]> {
  const ids = searchIdentifiers(text).slice(0, MAX_SEARCH_IDENTIFIERS).sort();
  for (let i = 0; i < ids.length; i += EXPORT_CHUNK) {
    const chunk = sql`s.sid IN (SELECT value FROM json_each(${
      JSON.stringify(ids.slice(i, i + EXPORT_CHUNK))
    }))`;
    let after: { sid: string; rn: number } | null = null;
    for (;;) {
      const where: RawBuilder<unknown> = after
        ? sql`${chunk} AND (s.sid, s.rowid) > (${after.sid}, ${after.rn})`
        : chunk;
      const rows = await exportPage(db, where, sql`s.sid, s.rowid`, pageSize);
      if (rows.length) yield rows.map(pageMatch);
      if (rows.length < pageSize) break;
      const last = rows[rows.length - 1];
      after = { sid: last[2], rn: last[14] };
    }
  }
  // by user identifier (the session's key): at most a row each, unless its sid was listed too
  const listed = JSON.stringify(ids);
  for (let i = 0; i < ids.length; i += pageSize) {
    const rows = await exportPage(
      db,
      sql`s.id IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(i, i + pageSize))}))
        AND s.sid NOT IN (SELECT value FROM json_each(${listed}))`,
      sql`s.id`,
      pageSize,
    );
    if (rows.length) yield rows.map(pageMatch);
  }
}

/** The Identifiers export (a CSV job, server/http/csv.ts): its columns and every match. */
export function identifiersExport(db: Db, text: string) {
  return { columns: identifiersList.columns, pages: identifierMatchPages(db, text) };
}
