/**
 * The supply API's survey calls (shared/api/supply-surveys.ts), on the supply sub-app: each scoped
 * to the key's supplier; the lists and reads carry an ETag (304 on If-None-Match).
 */
import type { Context, Hono } from "hono";
import type { SupplyEnv } from "./context.ts";
import { okTagged } from "../http/etag.ts";
import { idParam, jsonBody, limitBody, parseWith } from "../http/validate.ts";
import { requestInfo } from "../http/request-info.ts";
import { entryBaseOf } from "../routes/supplier-maps.ts";
import { ok } from "../http/respond.ts";
import {
  getSupplySurvey,
  listSupplySurveys,
  startSupplySurvey,
  type SupplyScope,
  supplySurveyQuotas,
} from "../domain/supply/surveys.ts";
import {
  supplySurveyCall,
  supplySurveyQuotasCall,
  supplySurveysCall,
  SupplySurveysQuery,
  supplySurveyStartCall,
} from "../../shared/api/supply-surveys.ts";
import { InventoryStart } from "../../shared/api/portal.ts";

type SupplyCtx = Context<SupplyEnv>;

/** A start's body: at most the five links and a flag. */
const START_BODY_LIMIT = 16 * 1024;

// the app's helpers read the request and deps only (a supply context has those and a supplier)
const scopeOf = (c: SupplyCtx): SupplyScope => ({
  supplierId: c.get("supplier").supplierId,
  entryBase: entryBaseOf(c as Context),
});
const surveyOf = (c: SupplyCtx) => ({ ...scopeOf(c), surveyId: idParam(c, "Survey") });

/** The key's supplier as the audit log's actor. */
function keyActor(c: SupplyCtx) {
  const s = c.get("supplier");
  const info = requestInfo(c as Context);
  return {
    userId: null,
    name: `${s.supplierName} (API key ${s.keyId})`,
    ipAddress: info.ipAddress,
    device: "supply API",
    city: info.city,
    country: info.country,
  };
}

export function supplySurveyRoutes(app: Hono<SupplyEnv>) {
  app.get(supplySurveysCall.path, async (c) => {
    const query = parseWith(SupplySurveysQuery, c.req.query());
    const page = await listSupplySurveys(c.get("deps"), { ...scopeOf(c), query });
    // asOf moves with every call: the tag covers the surveys, so an unchanged list revalidates (304)
    const { asOf: _, ...covers } = page;
    return await okTagged(c, page, { covers });
  });
  app.get(
    supplySurveyCall.path,
    async (c) => await okTagged(c, await getSupplySurvey(c.get("deps"), surveyOf(c))),
  );
  app.get(
    supplySurveyQuotasCall.path,
    async (c) => await okTagged(c, await supplySurveyQuotas(c.get("deps"), surveyOf(c))),
  );
  app.post(supplySurveyStartCall.path, limitBody(START_BODY_LIMIT), async (c) => {
    const input = surveyOf(c);
    const sent = await jsonBody(c);
    // an empty body starts with the supplier's saved redirect links, as the portal's dialog does
    const start = Object.keys(sent).length
      ? parseWith(InventoryStart, sent)
      : parseWith(InventoryStart, { ...NO_LINKS, isUrlUpdated: false });
    const ctx = { ...c.get("deps"), actor: keyActor(c) };
    return ok(c, await startSupplySurvey(ctx, { ...input, start }), "Survey started");
  });
}

const NO_LINKS = {
  redirectComplete: "",
  redirectTerminate: "",
  redirectQuotaFull: "",
  redirectQualityTerm: "",
  redirectSurveyClose: "",
};
