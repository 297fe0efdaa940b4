/**
 * Reads of many rows by id answered as ONE row: the rows as a JSON list of arrays (columns in the
 * order asked), the ids as ONE JSON argument. The statement's text is then the same whatever the
 * number of ids, and it ends in `LIMIT 1`, so the local client keeps it prepared and reads it with
 * a single step (./local-client.ts): a read whose SQL text varied with its ids was prepared at every
 * call, a wide one costing more than its rows. Numbers, text and nulls come back as they are stored.
 */

/** The statement: `columns` of `table` for each of `ids` (any order; an unknown id has no row). */
export function byIdsAsOneRow(table: string, columns: readonly string[], ids: Iterable<string>) {
  return asOneRow(columns, `${table} WHERE id IN ${IN_JSON}`, [JSON.stringify([...ids])]);
}

/** `x IN` a list given as one JSON argument (`[...values]`). */
export const IN_JSON = "(SELECT value FROM json_each(?))";

/**
 * The statement: `columns` of the rows of `from` (a table and its WHERE, with IN_JSON for lists, its
 * text the same whatever the number of values), as one row.
 */
export function asOneRow(columns: readonly string[], from: string, args: string[]) {
  return {
    sql: `SELECT json_group_array(json_array(${columns.join(", ")})) AS rows FROM ${from} LIMIT 1`,
    args,
  };
}

/** The rows of such a read, each an object of the columns asked. */
export function rowsOfOneRow(
  result: readonly Record<string, unknown>[],
  columns: readonly string[],
): Record<string, unknown>[] {
  const list = JSON.parse(String(result[0]?.rows ?? "[]")) as unknown[][];
  return list.map((values) => Object.fromEntries(columns.map((c, i) => [c, values[i] ?? null])));
}
