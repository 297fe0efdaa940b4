/**
 * The supply API's rate limit (issue 23 item 4): a token bucket per API key. A key's bucket holds
 * up to `burst` calls and refills at `perMinute` calls a minute; a call takes one token, and a call
 * that finds less than one is refused (429) with the seconds until a token is back (`Retry-After`).
 *
 * Held by the app's services (deps.services.supplyRate), one per app instance, never module state;
 * memory is bounded: at most `maxKeys` buckets (a key whose bucket was dropped starts full again,
 * which is what an idle key's bucket would be by then anyway).
 */
import { type BoundedCache, boundedCache } from "../../lib/memo.ts";

export type RateSettings = {
  /** Calls a minute a key may make, sustained. */
  perMinute: number;
  /** Calls a key may make at once after a pause. */
  burst: number;
  /** The most buckets kept (keys seen); default 10,000. */
  maxKeys?: number;
};

export type RateVerdict = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

type Bucket = { tokens: number; at: number };

export class SupplyRateLimiter {
  readonly #buckets: BoundedCache<string, Bucket>;
  readonly #perMs: number;

  constructor(readonly settings: RateSettings, private readonly now: () => number) {
    this.#buckets = boundedCache(settings.maxKeys ?? 10_000);
    this.#perMs = settings.perMinute / 60_000;
  }

  /** Takes one call from the key's bucket, or says how long until it may call again. */
  take(keyId: string): RateVerdict {
    const now = this.now();
    const burst = this.settings.burst;
    let b = this.#buckets.get(keyId);
    if (!b) b = this.#buckets.set(keyId, { tokens: burst, at: now });
    // a clock moved back refills nothing (and never empties a bucket)
    b.tokens = Math.min(burst, b.tokens + Math.max(0, now - b.at) * this.#perMs);
    b.at = Math.max(b.at, now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, remaining: Math.floor(b.tokens) };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / this.#perMs / 1000)) };
  }

  /** Buckets held now (bounded by maxKeys). */
  get size(): number {
    return this.#buckets.size;
  }
}
