/**
 * The supply API's sub-app (`/supply/v1`, issue 23): a supplier's key in the `X-Api-Key` header
 * authenticates every call (server/domain/suppliers/api-keys.ts); the key's supplier is the
 * context's `supplier`, and every handler scopes its rows by it. A key in the URL is refused (400):
 * URLs end up in logs, proxies and browser histories.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { ok } from "../http/respond.ts";
import { authenticateSupplierKey, type KeyRefusal } from "../domain/suppliers/api-keys.ts";
import { supplyQuestions } from "../domain/supply/questions.ts";
import { supplySurveyRoutes } from "./surveys.ts";
import { API_KEY_HEADER, KEY_QUERY_NAMES, supplyQuestionsCall } from "../../shared/api/supply.ts";
import { MSG } from "../../shared/messages.ts";
import { limitBody } from "../http/validate.ts";
import { limitSupplyRate, supplyBooks } from "./books.ts";
import { supplyOpenApiDocument } from "./openapi.ts";

import type { SupplyEnv } from "./context.ts";
export type { SupplyEnv };

/** What a refused key is told (401). */
export const KEY_REFUSALS: Record<KeyRefusal, string> = {
  missing: `An API key is required in the ${API_KEY_HEADER} header`,
  unknown: "Unknown API key",
  revoked: "This API key has been revoked",
  expired: "This API key has expired",
  supplierInactive: "This API key's supplier is not active",
};

export const KEY_IN_URL = `Send the API key in the ${API_KEY_HEADER} header, never in the URL`;

/** Authenticates a supply call by its `X-Api-Key`; refuses a key in the query string. */
export const requireSupplierKey: MiddlewareHandler<SupplyEnv> = async (c, next) => {
  const names = Object.keys(c.req.query()).map((n) => n.toLowerCase());
  if (names.some((n) => KEY_QUERY_NAMES.includes(n))) return c.json({ message: KEY_IN_URL }, 400);
  const check = await authenticateSupplierKey(c.get("deps"), c.req.header(API_KEY_HEADER));
  if (!check.ok) return c.json({ message: KEY_REFUSALS[check.refusal] }, 401);
  c.set("supplier", check.supplier);
  await next();
};

export function supplyApp() {
  const app = new Hono<SupplyEnv>();
  // a supplier's data: no browser or proxy keeps a copy, refusals included
  app.use("*", async (c, next) => {
    await next();
    c.header("cache-control", "no-store");
  });
  // the body limit of /api/v1, ahead of the key (a refused call never pays for its body)
  app.use("*", limitBody());
  // the reference is public: a panel's developer reads it before holding a key
  app.get("/openapi.json", (c) => c.json(supplyOpenApiDocument()));
  app.use("*", requireSupplierKey);
  app.use("*", limitSupplyRate);

  app.get(supplyQuestionsCall.path, async (c) => ok(c, { data: await supplyQuestions(c.get("deps")) }));
  supplySurveyRoutes(app);

  supplyBooks(app);

  app.notFound((c) => c.json({ message: MSG.notFound }, 404));
  return app;
}
