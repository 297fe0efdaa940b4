/** The provider tabs' country filter (part 2, External import pages): its default lives in the URL state. */
import { assertEquals } from "../helpers/assert.ts";
import { buildListBody, selectParam, selectValues } from "../../web/src/components/data-grid/list-params.ts";
import { offersDecl } from "../../web/src/features/imports/imports.ts";

const countryOf = (key: Parameters<typeof offersDecl>[0], url: string) =>
  buildListBody(new URLSearchParams(url), offersDecl(key)).filter.countryCode;

Deno.test("provider tabs: Precision, Logit and Toluna open on a fixed country; Circle and UniMrkt on none", () => {
  assertEquals(countryOf("precision", ""), "US");
  assertEquals(countryOf("logit", ""), "US");
  assertEquals(countryOf("toluna", ""), "US");
  assertEquals(countryOf("circle", ""), undefined);
  assertEquals(countryOf("mrkt", ""), undefined);
});

Deno.test("provider tabs: a chosen country replaces the default, an empty key states none", () => {
  assertEquals(countryOf("precision", "countryCode=GB"), "GB");
  assertEquals(countryOf("precision", "countryCode="), undefined);
  assertEquals(countryOf("circle", "countryCode=DE&p=2"), "DE");
});

Deno.test("provider tabs: choosing none writes an empty key where a default would come back, else drops it", () => {
  const country = (key: Parameters<typeof offersDecl>[0]) => {
    const f = offersDecl(key).filters!.find((f) => f.kind === "select");
    if (f?.kind !== "select") throw new Error("no country filter");
    return f;
  };
  assertEquals(selectParam(country("precision"), []), "");
  assertEquals(selectParam(country("circle"), []), null);
  assertEquals(selectParam(country("precision"), ["CA"]), ["CA"]);
  // what the toolbar shows for each state of the URL
  assertEquals(selectValues(new URLSearchParams(""), country("toluna")), ["US"]);
  assertEquals(selectValues(new URLSearchParams("countryCode="), country("toluna")), []);
  assertEquals(selectValues(new URLSearchParams(""), country("circle")), []);
});
