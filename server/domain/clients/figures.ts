/**
 * Client list figures (part 1, 2.7: total projects, active projects, traffic, complete, approved,
 * actual and expected revenue), for one page of clients at a time.
 *
 * One grouped query over the child projects' counters (kept by the respondent router), never a
 * live aggregate over sessions (design.md 5a). A project counts once however many children it has.
 */
import type { Db } from "../../db/connection.ts";
import { sql } from "kysely";
import type { ClientFigures } from "../../../shared/api/clients.ts";
import { ACTIVE_PROJECT_STATUS } from "../../../shared/status.ts";

export type { ClientFigures };

export const ZERO_CLIENT_FIGURES: Readonly<ClientFigures> = Object.freeze({
  totalProjects: 0,
  activeProjects: 0,
  responded: 0,
  completed: 0,
  approved: 0,
  actualRevenue: 0,
  expectedRevenue: 0,
});

/** Figures per client id, from child-project counters (one grouped query); every id asked for is in the map. */
export async function clientFigures(
  db: Db,
  ids: string[],
): Promise<Map<string, ClientFigures>> {
  const out = new Map(ids.map((id) => [id, { ...ZERO_CLIENT_FIGURES }]));
  if (!ids.length) return out;
  const rows = await db.selectFrom("projects")
    .select([
      "clientId",
      sql<number>`count(DISTINCT coalesce(parentProjectId, id))`.as("totalProjects"),
      sql<
        number
      >`count(DISTINCT CASE WHEN projectStatus = ${ACTIVE_PROJECT_STATUS} THEN coalesce(parentProjectId, id) END)`
        .as(
          "activeProjects",
        ),
      sql<number>`sum(clicked)`.as("responded"),
      sql<number>`sum(complete)`.as("completed"),
      sql<number>`sum(approved)`.as("approved"),
      sql<number>`sum(approved * cpi)`.as("actualRevenue"),
      sql<number>`sum(complete * cpi)`.as("expectedRevenue"),
    ])
    .where("clientId", "in", ids).where("isDeleted", "=", 0)
    .groupBy("clientId").execute();
  for (const r of rows) {
    out.set(r.clientId, {
      totalProjects: Number(r.totalProjects),
      activeProjects: Number(r.activeProjects),
      responded: Number(r.responded ?? 0),
      completed: Number(r.completed ?? 0),
      approved: Number(r.approved ?? 0),
      actualRevenue: Math.round(Number(r.actualRevenue ?? 0) * 100) / 100,
      expectedRevenue: Math.round(Number(r.expectedRevenue ?? 0) * 100) / 100,
    });
  }
  return out;
}
