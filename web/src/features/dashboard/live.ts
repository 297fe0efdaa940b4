/**
 * The dashboard's live figures: a server-sent event stream opened with a short-lived ticket
 * (EventSource sends no Authorization header); if the stream drops, the page polls the ticket call
 * (which answers the same shared figures) every 5 s and tries the stream again with backoff.
 */
import { useEffect, useState } from "react";
import { pathOf } from "../../../../shared/api/contract.ts";
import { dashboardLiveCall, liveTicketCall, type LiveUpdate } from "../../../../shared/api/dashboard.ts";
import { api, API_BASE } from "../../lib/api.ts";

export const POLL_MS = 5_000;
export type LiveMode = "connecting" | "live" | "polling";

export function useDashboardLive(): { update: LiveUpdate | null; mode: LiveMode } {
  const [update, setUpdate] = useState<LiveUpdate | null>(null);
  const [mode, setMode] = useState<LiveMode>("connecting");

  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let poll: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;

    const take = (u: LiveUpdate) => {
      if (!stopped) setUpdate((prev) => (prev && prev.at > u.at ? prev : u));
    };
    const ticket = async () => {
      const r = await api(liveTicketCall, undefined, { quiet: true });
      take(r.result.update);
      return r.result.ticket;
    };
    const startPolling = () => {
      setMode("polling");
      if (poll === undefined) poll = setInterval(() => void ticket().catch(() => {}), POLL_MS);
    };
    const open = async () => {
      retry = undefined;
      try {
        const t = await ticket();
        if (stopped) return;
        source = new EventSource(`${API_BASE}${pathOf(dashboardLiveCall)}?ticket=${encodeURIComponent(t)}`);
        source.addEventListener("update", (e) => take(JSON.parse((e as MessageEvent).data)));
        source.onopen = () => {
          failures = 0;
          setMode("live");
          clearInterval(poll);
          poll = undefined;
        };
        source.onerror = () => {
          // closed by the server (its stream lasts 10 minutes) or lost: poll, then a new ticket and stream
          source?.close();
          source = null;
          fallBack();
        };
      } catch {
        fallBack();
      }
    };
    const fallBack = () => {
      if (stopped) return;
      startPolling();
      failures++;
      if (retry === undefined) retry = setTimeout(open, Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5)));
    };

    void open();
    return () => {
      stopped = true;
      source?.close();
      clearInterval(poll);
      clearTimeout(retry);
    };
  }, []);

  return { update, mode };
}
