/** Rows a grid shows in the warning (amber) style, with the reason its legend gives. */

/** Why a project row is amber: the grid's legend reads "Amber: <reason>". */
export const COMPLETE_REACHED = "completes have reached the sample size";

/**
 * Rows whose complete count reached the sample size get the warning style (part 1, 2.4): a
 * `warnRow` that answers with its reason, so the row and the legend can say why.
 */
export function completeReached(
  row: { complete?: number | null; sampleSize?: number | null },
): typeof COMPLETE_REACHED | false {
  const sample = Number(row.sampleSize ?? 0);
  return sample > 0 && Number(row.complete ?? 0) >= sample ? COMPLETE_REACHED : false;
}
