/**
 * The providers as configured: each provider's adapter from `PROVIDER_<NAME>_URL` and `_KEY` (and
 * Toluna's panel and partner key), or the built-in stand-in at `sandboxBase` (a demo server) when
 * its URL is unset, or none ("not configured"). A real URL and key replace the stand-in without a
 * code change.
 */
import type { Env } from "../env.ts";
import type { ProviderState } from "../../shared/api/providers.ts";
import {
  PROVIDER_ENV_NAMES,
  PROVIDER_KEYS,
  PROVIDER_NAMES,
  type ProviderKey,
} from "../../shared/schemas/providers.ts";
import { upstream } from "../domain/errors.ts";
import type { ProviderAdapter, ProviderConfig } from "./types.ts";
import { precisionAdapter } from "./precision.ts";
import { logitAdapter } from "./logit.ts";
import { tolunaAdapter } from "./toluna.ts";
import { circleAdapter } from "./circle.ts";
import { mrktAdapter } from "./mrkt.ts";
import { SANDBOX_KEY, SANDBOX_TOLUNA_PANEL } from "./sandbox/index.ts";

export type { OfferFilters, ProviderAdapter, ProviderConfig } from "./types.ts";

const FACTORIES: Record<ProviderKey, (cfg: ProviderConfig) => ProviderAdapter> = {
  precision: precisionAdapter,
  logit: logitAdapter,
  toluna: tolunaAdapter,
  circle: circleAdapter,
  mrkt: mrktAdapter,
};

export const adapterFor = (cfg: ProviderConfig) => FACTORIES[cfg.key](cfg);

export class ProviderRegistry {
  readonly #adapters = new Map<ProviderKey, ProviderAdapter>();
  constructor(configs: ProviderConfig[]) {
    for (const c of configs) this.#adapters.set(c.key, adapterFor(c));
  }
  /** The adapter, or null when the provider is not configured. */
  find(key: ProviderKey): ProviderAdapter | null {
    return this.#adapters.get(key) ?? null;
  }
  /** The adapter, or an error saying the provider is not configured (and how to configure it). */
  get(key: ProviderKey): ProviderAdapter {
    const a = this.find(key);
    if (!a) throw upstream(notConfigured(key));
    return a;
  }
  state(key: ProviderKey): ProviderState {
    const a = this.find(key);
    return {
      provider: key,
      name: PROVIDER_NAMES[key],
      configured: !!a,
      sandbox: !!a?.config.sandbox,
      note: !a
        ? notConfigured(key)
        : a.config.sandbox
        ? `Sandbox: built-in stand-in offers; set PROVIDER_${PROVIDER_ENV_NAMES[key]}_URL and _KEY to use ${
          PROVIDER_NAMES[key]
        }`
        : "",
    };
  }
  all(): ProviderAdapter[] {
    return PROVIDER_KEYS.map((k) => this.#adapters.get(k)).filter((a): a is ProviderAdapter => !!a);
  }
}

export const notConfigured = (key: ProviderKey) =>
  `${PROVIDER_NAMES[key]} is not configured: set PROVIDER_${PROVIDER_ENV_NAMES[key]}_URL and PROVIDER_${
    PROVIDER_ENV_NAMES[key]
  }_KEY`;

/**
 * The configurations from the environment. A provider with a URL and key uses them; without a URL,
 * `sandboxBase` (the demo's mounted stand-ins) stands in for it; otherwise it is not configured.
 */
export function providerConfigs(env: Env, opts: { sandboxBase?: string } = {}): ProviderConfig[] {
  const e = env as unknown as Record<string, string | undefined>;
  const out: ProviderConfig[] = [];
  for (const key of PROVIDER_KEYS) {
    const name = PROVIDER_ENV_NAMES[key];
    const url = e[`PROVIDER_${name}_URL`], apiKey = e[`PROVIDER_${name}_KEY`];
    if (url && apiKey) {
      out.push({
        key,
        url: url.replace(/\/+$/, ""),
        apiKey,
        sandbox: false,
        ...(key === "toluna"
          ? { panel: env.PROVIDER_TOLUNA_PANEL, partnerKey: env.PROVIDER_TOLUNA_PARTNER_KEY }
          : {}),
      });
    } else if (!url && opts.sandboxBase) {
      out.push({
        key,
        url: `${opts.sandboxBase.replace(/\/+$/, "")}/${key}`,
        apiKey: SANDBOX_KEY,
        sandbox: true,
        ...(key === "toluna" ? { panel: SANDBOX_TOLUNA_PANEL, partnerKey: SANDBOX_KEY } : {}),
      });
    }
  }
  return out;
}

export const providersFromEnv = (env: Env, opts: { sandboxBase?: string } = {}) =>
  new ProviderRegistry(providerConfigs(env, opts));
