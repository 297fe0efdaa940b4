/**
 * Client list figures (part 1, 2.7: total projects, active projects, traffic, complete, approved,
 * actual and expected revenue), for one page of clients at a time.
 *
 * One grouped query over the child projects' counters (kept by the respondent router), never a
 * live aggregate over sessions (design.md 5a). A project counts once however many children it has.
 */
import type { Db } from "../../db/connection.ts";
import type { ClientFigures } from "../../../shared/api/clients.ts";
import { partyFigures } from "../common/party-figures.ts";

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
export async function clientFigures(db: Db, ids: string[]): Promise<Map<string, ClientFigures>> {
  const figures = await partyFigures(db, "client", ids);
  return new Map(
    [...figures].map(([id, { actual, expected, ...f }]) => [id, {
      ...f,
      actualRevenue: actual,
      expectedRevenue: expected,
    }]),
  );
}
