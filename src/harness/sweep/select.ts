/**
 * Honest selection: for each fold, the point with the best mean objective over the training
 * clusters' items (ties go to the earlier point), scored on the held-out clusters' items. Each
 * item (an ask, its seeds already averaged) is scored by the choice of the fold that held it out,
 * so the pooled held-out vector is an estimate of what choosing by this objective gives on data
 * the choice did not see.
 */

export interface FoldChoice {
  /** The clusters held out. */
  heldOut: string[];
  /** Index of the point chosen on the other folds. */
  chosen: number;
  /** The chosen point's mean over the training items. */
  training: number;
  /** Its mean over the held-out items. */
  heldOutScore: number;
  /** Items held out. */
  items: number;
}

export interface Selection {
  folds: FoldChoice[];
  /** Per item, the objective of the point its fold chose. */
  heldOut: number[];
  /** The point chosen on all the items, and its mean there (the figure a naive search reports). */
  chosen: number;
  chosenScore: number;
  /** Per point, its mean over all the items. */
  means: number[];
}

/**
 * `values[p][i]` is point p's objective on item i; `clusterOf[i]` names item i's cluster; `folds`
 * lists the held-out clusters of each fold, every cluster in exactly one.
 */
export function crossValidate(values: readonly (readonly number[])[], clusterOf: readonly string[], folds: readonly string[][]): Selection {
  if (values.length === 0) throw new RangeError("a sweep needs at least one point");
  const foldOf = new Map<string, number>();
  folds.forEach((fold, f) =>
    fold.forEach((cluster) => {
      if (foldOf.has(cluster)) throw new RangeError(`cluster "${cluster}" is in two folds`);
      foldOf.set(cluster, f);
    }),
  );
  const itemFold = clusterOf.map((cluster) => {
    const f = foldOf.get(cluster);
    if (f === undefined) throw new RangeError(`cluster "${cluster}" is in no fold`);
    return f;
  });
  const everyItem = () => true;
  const best = (keep: (i: number) => boolean) => {
    let chosen = 0;
    let score = Number.NEGATIVE_INFINITY;
    values.forEach((row, p) => {
      const m = meanOver(row, keep);
      if (m > score) {
        chosen = p;
        score = m;
      }
    });
    return { chosen, score };
  };
  const heldOut = new Array<number>(clusterOf.length).fill(0);
  const choices = folds.map((fold, f) => {
    const { chosen, score } = best((i) => itemFold[i] !== f);
    const inFold = (i: number) => itemFold[i] === f;
    clusterOf.forEach((_, i) => {
      if (inFold(i)) heldOut[i] = values[chosen][i];
    });
    return { heldOut: [...fold], chosen, training: score, heldOutScore: meanOver(values[chosen], inFold), items: itemFold.filter((g) => g === f).length };
  });
  const all = best(everyItem);
  return { folds: choices, heldOut, chosen: all.chosen, chosenScore: all.score, means: values.map((row) => meanOver(row, everyItem)) };
}

function meanOver(row: readonly number[], keep: (i: number) => boolean): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < row.length; i++) {
    if (!keep(i)) continue;
    sum += row[i];
    n++;
  }
  return n === 0 ? 0 : sum / n;
}
