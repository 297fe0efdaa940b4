/** Geography and lookups (part 1, section 7): reference lists held in memory, for every signed-in user. */
import type { Api } from "../http/api.ts";
import { body } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { badRequest } from "../http/errors.ts";
import { CitiesBody, RegionsBody } from "../../shared/schemas/lookups.ts";
import { citiesOf, countries, countryByCode, regionById, regionsOfCountries } from "../domain/lookups/geo.ts";
import { languages } from "../domain/lookups/languages.ts";
import { currencies } from "../domain/lookups/currencies.ts";

function assertCountries(codes: string[], field: string) {
  const unknown = codes.filter((c) => !countryByCode(c));
  if (unknown.length) {
    const message = `Unknown country: ${unknown.join(", ")}`;
    throw badRequest(message, [{ path: field, message }]);
  }
}

export function lookupRoutes(api: Api) {
  api.get(
    "/admin/countries",
    (c) => ok(c, countries().map(({ currency: _currency, ...country }) => country)),
  );
  api.get("/admin/languages", (c) => ok(c, languages()));
  api.get("/admin/currencies", (c) => ok(c, currencies()));

  api.post("/admin/regions", async (c) => {
    const { countryIds } = await body(c, RegionsBody);
    assertCountries(countryIds, "countryId");
    return ok(c, regionsOfCountries(countryIds));
  });

  api.post("/admin/cities", async (c) => {
    const q = await body(c, CitiesBody);
    assertCountries(q.countryIds, "countryId");
    const unknown = q.regionIds.filter((r) => !regionById(r));
    if (unknown.length) {
      const message = `Unknown region: ${unknown.join(", ")}`;
      throw badRequest(message, [{ path: "regionId", message }]);
    }
    if (q.regionIds.length && q.countryIds.length) {
      const outside = q.regionIds.filter((r) => !q.countryIds.includes(regionById(r)!.countryCode));
      if (outside.length) {
        const message = `Region ${outside.join(", ")} is not in ${q.countryIds.join(", ")}`;
        throw badRequest(message, [{ path: "regionId", message }]);
      }
    }
    const { cities, total } = citiesOf(q);
    const message = total > cities.length
      ? `Showing ${cities.length} of ${total} cities: search to narrow the list`
      : "Success";
    return ok(c, cities, message);
  });
}
