/**
 * What every stand-in shares: its state (offers, key, and a mode the tests switch to act out each
 * failure), and the guard that acts it out before the provider's own handler answers.
 */
import type { Context, Next } from "hono";
import { type SandboxOffer, sandboxOffers } from "./data.ts";

/** ok; down (5xx); slow (answers after delayMs); malformed (not JSON); empty (no offers). */
export type SandboxMode = "ok" | "down" | "slow" | "malformed" | "empty";

export type SandboxState = {
  key: string;
  offers: SandboxOffer[];
  mode: SandboxMode;
  delayMs: number;
  pageSize: number;
  /** Requests seen (tests count retries with it). */
  hits: number;
};

/** The key the stand-ins accept (the demo points the adapters at them with it). */
export const SANDBOX_KEY = "sandbox-key";

export function sandboxState(seed: number, extra: Partial<SandboxState> = {}): SandboxState {
  return {
    key: SANDBOX_KEY,
    offers: sandboxOffers(seed),
    mode: "ok",
    delayMs: 0,
    pageSize: 10,
    hits: 0,
    ...extra,
  };
}

/**
 * Acts out the state's mode, then checks the key from `keyOf`; `refuse` and `down` answer in the
 * provider's own error shape.
 */
export function guard(
  state: SandboxState,
  keyOf: (c: Context) => string | undefined,
  refuse: (c: Context) => Response,
  down: (c: Context) => Response,
) {
  return async (c: Context, next: Next) => {
    state.hits++;
    if (state.mode === "slow") await new Promise((r) => setTimeout(r, state.delayMs || 2_000));
    if (state.mode === "down") return down(c);
    if (keyOf(c) !== state.key) return refuse(c);
    if (state.mode === "malformed") {
      return c.body('{"surveys": [ {"id": 1, ', 200, { "content-type": "application/json" });
    }
    await next();
  };
}

export const offersOf = (state: SandboxState, country?: string | null) =>
  state.mode === "empty"
    ? []
    : state.offers.filter((o) => !country || o.country.toUpperCase() === country.toUpperCase());

/** One page (1-based) of a list, and whether another follows. */
export function pageOf<T>(items: T[], page: number, size: number) {
  const p = Math.max(1, page || 1);
  return {
    items: items.slice((p - 1) * size, p * size),
    pages: Math.max(1, Math.ceil(items.length / size)),
    page: p,
  };
}
