/**
 * Ids (server/db/ids.ts): 24 hex characters, the second first; one process's ids rise in the order
 * they are made (so a commit's new rows sit together at the end of each index on their id), and
 * each keeps 48 random bits (an id seen tells nothing of the next one's).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { newId } from "../../server/db/ids.ts";

Deno.test("ids: 24 hex, rising in the order made within a second and across seconds, unique", () => {
  const t = Date.parse("2026-11-26T22:00:00.250Z");
  const ids = [
    ...Array.from({ length: 5_000 }, () => newId(t)),
    ...Array.from({ length: 5_000 }, () => newId(t + 1_000)),
  ];
  for (const id of ids) assert(/^[0-9a-f]{24}$/.test(id), id);
  assertEquals(ids[0].slice(0, 8), Math.floor(t / 1000).toString(16));
  assertEquals([...ids].sort(), ids, "sorted as made");
  assertEquals(new Set(ids).size, ids.length);
});

Deno.test("ids: the random part differs between neighbours; past 65,536 in one second they stay unique", () => {
  const t = Date.parse("2026-11-26T22:00:07Z");
  const ids = Array.from({ length: 70_000 }, () => newId(t));
  assertEquals(new Set(ids).size, ids.length);
  // the last 12 hex characters are random: neighbours share no long common run there
  const tails = new Set(ids.slice(0, 1_000).map((id) => id.slice(12)));
  assertEquals(tails.size, 1_000);
  assert(ids.slice(0, 100).some((id, i) => i > 0 && id.slice(12, 14) !== ids[i - 1].slice(12, 14)));
});
