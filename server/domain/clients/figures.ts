/**
 * Client list figures (part 1, 2.7: total projects, active projects, traffic, complete, approved,
 * actual and expected revenue), for one page of clients at a time.
 *
 * Projects do not exist yet, so every client has zeros. The projects issue replaces the body of
 * `clientFigures` with ONE grouped query over the project counter tables (never a live aggregate
 * over sessions, see design.md 5a), e.g.:
 *
 *   SELECT clientId, count(*) totalProjects, sum(projectStatus = 1) activeProjects,
 *          sum(clicked) responded, sum(complete) completed, sum(approved) approved,
 *          sum(approved * cpi) actualRevenue, sum(complete * cpi) expectedRevenue
 *   FROM projects WHERE projectType = 2 AND isDeleted = 0 AND clientId IN (:ids) GROUP BY clientId
 *
 * Keep the signature: the clients list merges the map into each page (no query per row).
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/types.ts";

export type ClientFigures = {
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  approved: number;
  actualRevenue: number;
  expectedRevenue: number;
};

export const ZERO_CLIENT_FIGURES: Readonly<ClientFigures> = Object.freeze({
  totalProjects: 0,
  activeProjects: 0,
  responded: 0,
  completed: 0,
  approved: 0,
  actualRevenue: 0,
  expectedRevenue: 0,
});

/** Figures per client id; every id asked for is in the map. */
export function clientFigures(_db: Kysely<Database>, ids: string[]): Promise<Map<string, ClientFigures>> {
  return Promise.resolve(new Map(ids.map((id) => [id, { ...ZERO_CLIENT_FIGURES }])));
}
