/**
 * Support > Identifiers: respondents looked up by supplier identifier (sid) or user identifier
 * (uid), thousands at once, across every project. The sid is served by the sessions_sid index
 * (migration 0008), the uid is the sessions' key; each line of the box is matched exactly against
 * both. An empty box finds nothing (never every respondent).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, iterateList, listSpecOf } from "../../db/list.ts";
import type { ListBody } from "../../../shared/list.ts";
import { type IdentifierMatch, identifiersList } from "../../../shared/api/support.ts";
import { searchIdentifiers } from "../../../shared/schemas/support.ts";
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
  const qb = db.selectFrom("sessions as s")
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
  return typeof text === "string" && searchIdentifiers(text).length ? qb : qb.where(sql<boolean>`0`);
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
  const country = countryByCode(r.country);
  return {
    _id: r.id,
    projectId: r.projectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    supplierName: r.supplierName ?? "",
    sid: r.sid,
    uid: r.id,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    countryCode: country?.code ?? r.country,
    countryName: country?.label ?? r.country,
    ipAddress: r.ip,
    deviceType: r.deviceType,
    browser: r.browser,
    status: r.status,
    statusLabel: sessionStatusLabel(r.status),
    isTest: !!r.isTest,
  };
}

/** Every match of the identifiers, a page at a time (the export). */
export function identifierMatchPages(db: Db, text: string): AsyncGenerator<IdentifierMatch[]> {
  const body: ListBody = {
    filter: { multiSearch: text },
    search: "",
    pageNo: 1,
    limit: IDENTIFIER_PAGE_SIZE,
  };
  return iterateList(db, identifiersQuery(db, body), body, identifiersListSpec, identifierMatch);
}
