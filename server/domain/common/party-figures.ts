/**
 * The list figures of a client or a supplier (part 1, 2.7 and 2.8: total and active projects,
 * traffic, completes, approved, and their money at the actual and expected rate), for one page of
 * clients or suppliers at a time.
 *
 * One grouped query over counters kept by the respondent router (child projects' for a client,
 * supplier maps' for a supplier), never a live aggregate over sessions (design.md 5a). The two
 * differ only in where the counters live, what a "project" is and which price applies; this is the
 * one query both use.
 */
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { AnyQB } from "../../db/list.ts";
import { ACTIVE_PROJECT_STATUS } from "../../../shared/status.ts";
import { mapAccepted, projectAccepted } from "./accepted.ts";

export type PartyFigures = {
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  /** The accepted count: approved, or the admin-approved count where staff set one. */
  approved: number;
  /** Accepted completes at the price: revenue for a client, expense for a supplier. */
  actual: number;
  /** Completes at the price. */
  expected: number;
};

type Source = {
  rows: (db: Db) => AnyQB;
  /** The grouping column: whose figures these are. */
  party: string;
  /** What counts as one project (a client's group project; a supplier's mapped child). */
  project: RawBuilder<unknown>;
  /** The table alias whose counters are summed. */
  counters: string;
  /** Its accepted count (./accepted.ts): what the client is billed and the supplier paid for. */
  accepted: RawBuilder<number>;
  price: string;
};

const SOURCES: Record<"client" | "supplier", Source> = {
  client: {
    rows: (db) => db.selectFrom("projects as p").where("p.isDeleted", "=", 0),
    party: "p.clientId",
    project: sql`coalesce(p.parentProjectId, p.id)`,
    counters: "p",
    accepted: projectAccepted("p"),
    price: "p.cpi",
  },
  supplier: {
    rows: (db) =>
      db.selectFrom("supplier_maps as m").innerJoin("projects as p", "p.id", "m.projectId")
        .where("m.isDeleted", "=", 0).where("p.isDeleted", "=", 0),
    party: "m.supplierId",
    project: sql`m.projectId`,
    counters: "m",
    accepted: mapAccepted("m"),
    price: "m.supplierCPI",
  },
};

export const ZERO_PARTY_FIGURES: Readonly<PartyFigures> = Object.freeze({
  totalProjects: 0,
  activeProjects: 0,
  responded: 0,
  completed: 0,
  approved: 0,
  actual: 0,
  expected: 0,
});

const money = (n: unknown) => Math.round(Number(n ?? 0) * 100) / 100;

/** Figures per client or supplier id (one grouped query); every id asked for is in the map. */
export async function partyFigures(
  db: Db,
  kind: "client" | "supplier",
  ids: string[],
): Promise<Map<string, PartyFigures>> {
  const out = new Map(ids.map((id) => [id, { ...ZERO_PARTY_FIGURES }]));
  if (!ids.length) return out;
  const s = SOURCES[kind];
  const col = (name: string) => sql.ref(`${s.counters}.${name}`);
  const price = sql.ref(s.price);
  const rows = await s.rows(db)
    .select([
      sql.ref(s.party).as("party"),
      sql<number>`count(DISTINCT ${s.project})`.as("totalProjects"),
      sql<number>`count(DISTINCT CASE WHEN p.projectStatus = ${ACTIVE_PROJECT_STATUS} THEN ${s.project} END)`
        .as("activeProjects"),
      sql<number>`sum(${col("clicked")})`.as("responded"),
      sql<number>`sum(${col("complete")})`.as("completed"),
      sql<number>`sum(${s.accepted})`.as("approved"),
      sql<number>`sum(${s.accepted} * ${price})`.as("actual"),
      sql<number>`sum(${col("complete")} * ${price})`.as("expected"),
    ])
    .where(sql.ref(s.party), "in", ids)
    .groupBy(sql.ref(s.party)).execute() as Record<string, unknown>[];
  for (const r of rows) {
    out.set(String(r.party), {
      totalProjects: Number(r.totalProjects),
      activeProjects: Number(r.activeProjects),
      responded: Number(r.responded ?? 0),
      completed: Number(r.completed ?? 0),
      approved: Number(r.approved ?? 0),
      actual: money(r.actual),
      expected: money(r.expected),
    });
  }
  return out;
}
