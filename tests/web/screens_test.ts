/** Every screen of the permission table has a route definition in the web app. */
import { assert } from "../helpers/assert.ts";
import { SCREENS } from "../../shared/permissions.ts";
import { SCREEN_DEFS } from "../../web/src/app/screens.ts";

Deno.test("every permission-table screen is routed with a title", () => {
  const missing = SCREENS.filter((s) => !SCREEN_DEFS[s.path]?.title).map((s) => s.path);
  assert(missing.length === 0, `screens without a definition: ${missing.join(", ")}`);
  const stale = Object.keys(SCREEN_DEFS).filter((p) => !SCREENS.some((s) => s.path === p));
  assert(stale.length === 0, `definitions for screens not in the permission table: ${stale.join(", ")}`);
});
