/** The supplier portal's lists in the web kit: the URL's order reaches the list body only when declared. */
import { assertEquals } from "../helpers/assert.ts";
import { buildListBody } from "../../web/src/components/data-grid/list-params.ts";
import { inventoryDecl, mappedDecl } from "../../web/src/features/portal/portal.ts";

Deno.test("portal lists: a declared sort in the URL orders the call, an undeclared one is dropped", () => {
  const body = buildListBody(new URLSearchParams("sort=complete&dir=desc&q=abc&projectStatus=1"), mappedDecl);
  assertEquals([body.sortBy, body.sortDir, body.search, body.filter], ["complete", "desc", "abc", {
    projectStatus: [1],
  }]);
  assertEquals(buildListBody(new URLSearchParams("sort=projectCode"), mappedDecl).sortDir, "asc");
  // "complete" is not a sort of the inventory, and nothing but the declared sorts ever reaches the server
  const inv = buildListBody(new URLSearchParams("sort=complete&dir=desc"), inventoryDecl);
  assertEquals([inv.sortBy, inv.sortDir], [undefined, undefined]);
});
