/** The providers' stand-ins on a loopback port, and adapters pointed at them (tests). */
import { sandboxApp, type SandboxState, sandboxStates } from "../../server/providers/sandbox/index.ts";
import { SANDBOX_KEY, SANDBOX_TOLUNA_PANEL } from "../../server/providers/sandbox/index.ts";
import { adapterFor, ProviderRegistry } from "../../server/providers/index.ts";
import type { ProviderConfig } from "../../server/providers/types.ts";
import { PROVIDER_KEYS, type ProviderKey } from "../../shared/schemas/providers.ts";

export function startSandbox(extra: Partial<SandboxState> = {}) {
  const states = sandboxStates(extra);
  const app = sandboxApp(states);
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    app.fetch,
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const config = (key: ProviderKey, over: Partial<ProviderConfig> = {}): ProviderConfig => ({
    key,
    url: `${base}/${key}`,
    apiKey: SANDBOX_KEY,
    sandbox: false,
    timeoutMs: 2_000,
    attempts: 2,
    backoffMs: 10,
    ...(key === "toluna" ? { panel: SANDBOX_TOLUNA_PANEL, partnerKey: SANDBOX_KEY } : {}),
    ...over,
  });
  return {
    states,
    base,
    config,
    adapter: (key: ProviderKey, over: Partial<ProviderConfig> = {}) => adapterFor(config(key, over)),
    registry: (over: Partial<ProviderConfig> = {}) =>
      new ProviderRegistry(PROVIDER_KEYS.map((k) => config(k, over))),
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}
