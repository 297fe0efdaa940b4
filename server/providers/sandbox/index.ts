/**
 * The stand-ins of the five providers on one Hono app (`/precision`, `/logit`, `/toluna`, `/circle`,
 * `/mrkt`): the tests serve it on a loopback port, and a demo server mounts it at `/sandbox` when a
 * provider has no URL of its own, labelled "Sandbox" wherever its offers appear.
 */
import { Hono } from "hono";
import type { ProviderKey } from "../../../shared/schemas/providers.ts";
import { type SandboxState, sandboxState } from "./kit.ts";
import { precisionSandbox } from "./precision.ts";
import { logitSandbox } from "./logit.ts";
import { tolunaSandbox } from "./toluna.ts";
import { circleSandbox } from "./circle.ts";
import { mrktSandbox } from "./mrkt.ts";

export { SANDBOX_KEY, type SandboxMode, type SandboxState } from "./kit.ts";
export { SANDBOX_TOLUNA_PANEL } from "./toluna.ts";

/** Where a demo server mounts the stand-ins. */
export const SANDBOX_PATH = "/sandbox";

export type SandboxStates = Record<ProviderKey, SandboxState>;

/** Fresh state for each provider (its own offers). */
export const sandboxStates = (extra: Partial<SandboxState> = {}): SandboxStates => ({
  precision: sandboxState(1, extra),
  logit: sandboxState(2, extra),
  toluna: sandboxState(3, extra),
  circle: sandboxState(4, extra),
  mrkt: sandboxState(5, extra),
});

export function sandboxApp(states: SandboxStates = sandboxStates()) {
  const app = new Hono();
  app.route("/precision", precisionSandbox(states.precision));
  app.route("/logit", logitSandbox(states.logit));
  app.route("/toluna", tolunaSandbox(states.toluna));
  app.route("/circle", circleSandbox(states.circle));
  app.route("/mrkt", mrktSandbox(states.mrkt));
  return app;
}

/** The stand-ins under `/sandbox/<provider>`, for a demo server to answer ahead of its app. */
export function mountedSandbox(states: SandboxStates = sandboxStates()) {
  const outer = new Hono();
  outer.route(SANDBOX_PATH, sandboxApp(states));
  return outer;
}
