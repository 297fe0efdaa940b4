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

/** The legend under a grid while amber rows show: "Amber: <reason>" (rows point at it by id). */
export function WarnLegend({ reasons, idBase }: { reasons: string[]; idBase: string }) {
  return (
    <ul
      className="flex flex-wrap gap-x-4 gap-y-1 px-1 text-xs text-muted-foreground"
      aria-label="Row colours"
    >
      {reasons.map((r, i) => (
        <li key={r} id={`${idBase}-${i}`} className="inline-flex items-center gap-1.5">
          <span
            className="size-3 rounded-sm border border-warning-foreground/30 bg-warning"
            aria-hidden="true"
          />
          Amber: {r}
        </li>
      ))}
    </ul>
  );
}
