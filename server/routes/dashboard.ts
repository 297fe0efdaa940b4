/** Dashboard (part 1, 7 "Dashboard"): handlers of the contracts in shared/api/dashboard.ts, and the live stream. */
import { streamSSE } from "hono/streaming";
import type { Api } from "../http/api.ts";
import * as D from "../../shared/api/dashboard.ts";
import { dashboardRoutedCall } from "../../shared/api/routing.ts";
import { API } from "../../shared/permissions.ts";
import {
  completedProjects,
  dashboardBox,
  expenseSeries,
  invoiceChart,
  managerTable,
  revenueExpenseSeries,
  revenueSeries,
  routedFigures,
  securityProjects,
  securitySeries,
  statusSeries,
  trafficSeries,
} from "../domain/dashboard/figures.ts";
import { issueLiveTicket, LIVE_TICKET_SECONDS, liveViewer } from "../domain/dashboard/ticket.ts";

/** A stream ends after this long (the page opens a new one with a new ticket), so a signed-out or deactivated user stops receiving. */
export const LIVE_STREAM_MAX_MS = 10 * 60_000;
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 20_000;

export function dashboardRoutes(api: Api) {
  api.handle(D.dashboardBoxCall, ({ db, deps }) => dashboardBox(db, deps.now()));
  api.handle(dashboardRoutedCall, ({ db, deps }) => routedFigures(db, deps.now()));
  api.handle(D.dashboardManagersCall, ({ db }) => managerTable(db));
  api.handle(
    D.todayCompletedCall,
    ({ db, deps, body }) => completedProjects(db, body.sortDate ?? body.filter?.sortDate ?? 1, deps.now()),
  );
  api.handle(
    D.todaySecurityCall,
    ({ db, deps, body }) => securityProjects(db, body.sortDate ?? body.filter?.sortDate ?? 1, deps.now()),
  );
  api.handle(D.statusChartCall, ({ db, deps, body }) => statusSeries(db, body.type, deps.now(), body));
  api.handle(D.revenueChartCall, ({ db, deps, body }) => revenueSeries(db, body.type, deps.now(), body));
  api.handle(D.expenseChartCall, ({ db, deps, body }) => expenseSeries(db, body.type, deps.now(), body));
  api.handle(D.trafficChartCall, ({ db, deps, body }) => trafficSeries(db, body.type, deps.now(), body));
  api.handle(D.securityChartCall, ({ db, deps, body }) => securitySeries(db, body.type, deps.now(), body));
  api.handle(
    D.revenueExpenseChartCall,
    ({ db, deps, body }) => revenueExpenseSeries(db, body.type, deps.now()),
  );
  api.handle(D.invoiceChartCall, ({ db, deps, body }) => invoiceChart(db, body.type, deps.now(), body));

  api.handle(D.liveTicketCall, async ({ deps, c }) => {
    const user = c.get("user");
    const [ticket, update] = await Promise.all([
      issueLiveTicket(deps, user),
      deps.services.live.snapshot(),
    ]);
    return { ticket, expiresInSeconds: LIVE_TICKET_SECONDS, update };
  });

  // EventSource sends no Authorization header: the ticket in the query is its credential (a client
  // that can send headers may use its bearer token instead).
  api.handle(D.dashboardLiveCall, async ({ deps, query, c }) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    await liveViewer(deps, { ticket: query.ticket, bearer }, API[D.dashboardLiveCall.key]);
    const hub = deps.services.live;
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | null = null;
      const pause = (ms: number) =>
        new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            wake = null;
            resolve();
          }, ms);
          wake = () => {
            clearTimeout(t);
            wake = null;
            resolve();
          };
        });
      const send = (u: D.LiveUpdate) => stream.writeSSE({ event: "update", data: JSON.stringify(u) });
      const unsubscribe = hub.subscribe((u) => {
        if (!stream.aborted && !stream.closed) send(u).catch(() => {});
      });
      stream.onAbort(() => {
        unsubscribe();
        (wake as (() => void) | null)?.();
      });
      try {
        await send(await hub.snapshot());
        const endAt = Date.now() + LIVE_STREAM_MAX_MS;
        while (!stream.aborted && !stream.closed && Date.now() < endAt) {
          await pause(Math.min(HEARTBEAT_MS, endAt - Date.now()));
          if (!stream.aborted && !stream.closed) await stream.write(": ping\n\n");
        }
      } finally {
        unsubscribe();
      }
    });
  });
}
