/**
 * Cross-validation folds by cluster. A cluster (a scenario, a benchmark conversation) is never
 * split: its asks share memories, so an ask of a held-out conversation must not have a sibling
 * among the training asks. Clusters are sorted by name, shuffled from the seed, then dealt to
 * the folds in turn, so the folds depend on the clusters and the seed alone.
 */
import { byCodeUnit } from "../../shared/order.js";
import { createRng } from "../stats/index.js";

/** The held-out clusters of each fold; `folds` of them, or one per cluster when there are fewer clusters. */
export function assignFolds(clusters: readonly string[], folds: number, seed: number): string[][] {
  const distinct = [...new Set(clusters)].sort(byCodeUnit);
  if (distinct.length < 2) throw new RangeError(`cross-validation needs at least two clusters, got ${distinct.length}`);
  const k = Math.min(folds, distinct.length);
  const dealt: string[][] = Array.from({ length: k }, () => []);
  createRng(seed)
    .fork("folds")
    .shuffle(distinct)
    .forEach((cluster, i) => dealt[i % k].push(cluster));
  return dealt.map((fold) => fold.sort(byCodeUnit));
}
