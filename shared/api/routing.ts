/**
 * Routing of the screened-out (issue 24 item 3): the dashboard's figures of routed traffic (the
 * later hops of routing chains), kept apart from the cards of shared/api/dashboard.ts.
 */
import { defineCall, returns } from "./contract.ts";

/** Routed traffic this month (respondents a routing chain sent on to another survey), kept apart. */
export type RoutedFigures = {
  monthRoutedEntries: number;
  monthRoutedCompleted: number;
  monthRoutedRevenue: number;
};

export const dashboardRoutedCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/routed/data",
  result: returns<RoutedFigures>(),
});
