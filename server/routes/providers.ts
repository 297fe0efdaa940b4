/** External providers (part 2, "External providers"; part 1, 2.6 Projects External): handlers of shared/api/providers.ts. */
import { answer, type Api } from "../http/api.ts";
import { callerCtx } from "./projects.ts";
import * as P from "../../shared/api/providers.ts";
import { PROVIDER_KEYS, type ProviderKey } from "../../shared/schemas/providers.ts";
import { importOffer } from "../domain/imports/import.ts";
import {
  externalProjectItem,
  externalProjectsQuery,
  externalProjectsSpec,
  pageOffers,
  withImports,
} from "../domain/imports/offers.ts";
import { csvResponse, csvStream } from "../http/csv.ts";
import { externalOffers, offerQuotas, withTexts } from "../domain/imports/external.ts";
import { correctMapping, mappingItem, mappingsQuery, mappingsSpec } from "../domain/imports/mappings.ts";
import type { Deps } from "../deps.ts";

const added = (r: P.ImportResult) => answer(r, `Project ${r.projectCode} created`);

/** A page's offers, all of them, as the CSV of its list (named "Projects"). */
function offersCsv(
  c: Parameters<typeof csvResponse>[0],
  deps: Deps,
  list: { id: string; columns: typeof P.externalOffersList.columns },
  offers: P.ExternalOffer[],
) {
  const stamp = new Date(deps.now()).toISOString().slice(0, 10);
  return csvResponse(
    c,
    `${list.id}-${stamp}.csv`,
    csvStream(
      list.columns,
      (async function* () {
        yield offers;
      })(),
    ),
  );
}

function offerRoutes(api: Api, key: ProviderKey) {
  const calls = P.PROVIDER_CALLS[key];
  api.handle(calls.offers, async ({ deps, db, body, c }) => {
    const registry = deps.services.providers;
    const state = registry.state(key);
    const adapter = registry.find(key);
    const country = body.filter?.countryCode ?? body.filter?.country ?? body.filters?.countryCode ??
      body.filters?.country;
    const search = body.search ?? body.filters?.search ?? undefined;
    const offers = adapter
      ? await withImports(
        db,
        key,
        await withTexts(
          db,
          key,
          await adapter.listOffers({
            countryCode: typeof country === "string" && country.trim()
              ? country.trim().toUpperCase()
              : undefined,
            search: search || undefined,
          }),
        ),
      )
      : [];
    if (c.req.query("format") === "csv") return offersCsv(c, deps, P.OFFER_LISTS[key], offers);
    return { ...pageOffers(offers, body.pageNo, body.limit), provider: state };
  });
  api.handle(
    calls.add,
    async (x) =>
      added(
        await importOffer(callerCtx(x.ctx, x.c), {
          ...x.body,
          adapter: x.deps.services.providers.get(key),
        }),
      ),
  );
}

const adapter = (deps: Deps, key: ProviderKey) => deps.services.providers.get(key);

export function providerRoutes(api: Api) {
  for (const key of PROVIDER_KEYS) offerRoutes(api, key);

  api.handle(P.logitQuotas, ({ deps, body }) => adapter(deps, "logit").quotasOf!(body.projectId));
  api.handle(P.mrktQuotas, ({ deps, body }) => adapter(deps, "mrkt").quotasOf!(body.surveyId));
  api.handle(P.tolunaQuotaDetails, ({ deps, body }) => adapter(deps, "toluna").quotaDetails!(body.quotaId));
  api.handle(P.tolunaQuestions, ({ deps, body }) => {
    const ids = Array.isArray(body.questionId) ? body.questionId : [body.questionId];
    return adapter(deps, "toluna").questions!(ids);
  });

  // Projects External: every configured provider's offers, one page of 20 (`p` on the screen)
  api.handle(P.listExternalOffers, async ({ deps, db, body, c }) => {
    const { offers, providers } = await externalOffers(db, deps.services.providers, body);
    if (c.req.query("format") === "csv") return offersCsv(c, deps, P.externalOffersList, offers);
    return { ...pageOffers(offers, body.pageNo, body.limit), providers };
  });
  api.handle(
    P.externalOfferQuotas,
    ({ deps, db, body }) => offerQuotas(db, deps.services.providers, body.provider, body.surveyId),
  );

  api.list(P.listExternalProjects, ({ db, deps }) => ({
    // the tab says "No provider configured" when nothing is imported and no provider is connected
    metadata: { providers: PROVIDER_KEYS.map((k) => deps.services.providers.state(k)) },
    query: externalProjectsQuery(db),
    spec: externalProjectsSpec,
    map: externalProjectItem,
    list: P.externalProjectsList,
  }));
  // the provider answer <-> library option mappings: seen, and corrected (re-mapping live imports)
  api.list(P.listMappings, ({ db }) => ({
    query: mappingsQuery(db),
    spec: mappingsSpec,
    map: mappingItem,
    list: P.mappingsList,
  }));
  api.handle(P.updateMapping, async ({ ctx, params, body }) => {
    const r = await correctMapping(ctx, { ...body, id: params.id });
    const what = `${r.mapping.providerName} question ${r.mapping.questionId}`;
    return answer(
      r,
      !r.changes.length ? `Nothing changed on ${what}` : `Mapping of ${what} saved` +
        (r.remapped.length ? `; re-mapped ${r.remapped.map((p) => p.projectCode).join(", ")}` : "") +
        (r.unchanged.length
          ? `; left unchanged ${r.unchanged.map((p) => `${p.projectCode} (${p.reason})`).join(", ")}`
          : ""),
    );
  });
  api.handle(P.addExternalProject, async (x) => {
    const provider = x.deps.services.providers.get(x.body.provider);
    return added(
      await importOffer(callerCtx(x.ctx, x.c), { ...x.body, adapter: provider }),
    );
  });
}
