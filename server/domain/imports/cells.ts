/**
 * Ids of quota cells made from provider quotas. They are stored (quota cells, the import's quota
 * map, sessions' cells) and found again by a re-applied plan and by migration 0020: never change
 * their format.
 */

/**
 * The id of a cell over option groups: the groups' ids ("a|b+c", as interlocked cells have been
 * named since migration 0017), or, for a long set of one question (a list of postal codes), a
 * digest of them, so sessions that name the cell stay small. The same groups give the same id, so a
 * re-applied plan finds its cells (and their completes) again.
 */
export function cellId(groups: string[][]): string {
  const full = groups.map((g) => g.join("|")).join("+");
  if (full.length <= 160 || groups.length > 1) return full;
  let a = 0x811c9dc5, b = 0x01000193 ^ full.length;
  for (let i = 0; i < full.length; i++) {
    a = Math.imul(a ^ full.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ full.charCodeAt(full.length - 1 - i), 0x5bd1e995) >>> 0;
  }
  return `set:${groups[0].length}:${a.toString(16).padStart(8, "0")}${b.toString(16).padStart(8, "0")}`;
}
