/**
 * Holm–Bonferroni adjusted p-values, in the input order. Sorted ascending, the i-th smallest
 * (0-based) of m p-values is multiplied by (m − i); a running maximum keeps the adjusted values
 * in the same order as the raw ones, and they are capped at 1. Calling those with adjusted p < α
 * significant controls the family-wise error rate at α across all the comparisons passed in together.
 */
export function holm(pValues: readonly number[]): number[] {
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(`holm: pValues[${i}] must be a probability in [0, 1], got ${p}`);
    }
  });
  const m = pValues.length;
  // Stable sort, so equal p-values keep a deterministic order (their adjusted values are equal anyway).
  const order = pValues.map((_, i) => i).sort((x, y) => pValues[x] - pValues[y]);
  const adjusted = new Map<number, number>();
  let runningMax = 0;
  order.forEach((index, rank) => {
    runningMax = Math.max(runningMax, Math.min(1, (m - rank) * pValues[index]));
    adjusted.set(index, runningMax);
  });
  return pValues.map((_, i) => adjusted.get(i)!);
}
