/** Geography and lookups (part 1, section 7): handlers of the contracts in shared/api/lookups.ts. */
import { answer, type Api } from "../http/api.ts";
import * as L from "../../shared/api/lookups.ts";
import { citiesFor, countryList, regionsFor } from "../domain/lookups/geo.ts";
import { languages } from "../domain/lookups/languages.ts";
import { currencies } from "../domain/lookups/currencies.ts";

export function lookupRoutes(api: Api) {
  api.handle(L.countriesCall, () => countryList());
  api.handle(L.languagesCall, () => languages());
  api.handle(L.currenciesCall, () => currencies());
  api.handle(L.regionsCall, ({ body }) => regionsFor(body.countryIds));
  api.handle(L.citiesCall, ({ body }) => {
    const { cities, message } = citiesFor(body);
    return answer(cities, message);
  });
}
