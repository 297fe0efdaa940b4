/** Support > ShortCodes: the router's own table of the codes it fills (router/shortcodes.ts). */
import type { ShortCodeRow } from "../../../shared/api/support.ts";
import { shortCodeList } from "../router/shortcodes.ts";

/** Every short code, or those whose name or description contains `filter` (any case). */
export function shortCodes(filter = ""): ShortCodeRow[] {
  const f = filter.trim().toLowerCase();
  return shortCodeList()
    .filter((c) => !f || c.name.toLowerCase().includes(f) || c.description.toLowerCase().includes(f))
    .map((c) => ({ shortCodeName: c.name, shortCodeDescription: c.description, filledIn: c.filledIn }));
}
