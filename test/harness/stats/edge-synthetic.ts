// Clustered 0/1 outcomes whose true mean sits near 0 or 1, for the calibration of single-mean
// intervals at the edges: few clusters of very unequal size, each with its own success rate.
import { sampleNormal, type Rng } from "../../../src/harness/stats/index.js";

export interface EdgeDesign {
  /** The true mean of every item's outcome, e.g. 0.05 or 0.85. */
  p: number;
  /** Items per cluster. */
  sizes: readonly number[];
  /** sd of the cluster effect on the logit scale. */
  sdCluster: number;
  seeds: number;
  /** Share of items whose outcome is the same under every seed (an ask a policy either answers or not). */
  stable: number;
}

export interface EdgeSample {
  values: number[];
  items: number[];
  clusters: number[];
}

/**
 * One data set: cluster c succeeds with rate expit(μ + sdCluster·z_c), μ chosen so that the
 * marginal rate is exactly `p` (see logitCentre); a stable item draws one outcome for all its
 * seeds, another draws one per seed, so the true item-weighted mean is `p` either way.
 */
export function edgeSample(rng: Rng, design: EdgeDesign, centre: number): EdgeSample {
  const out: EdgeSample = { values: [], items: [], clusters: [] };
  let item = 0;
  design.sizes.forEach((size, c) => {
    const rate = expit(centre + sampleNormal(rng, 0, design.sdCluster));
    for (let i = 0; i < size; i++, item++) {
      const stable = rng.nextFloat() < design.stable;
      const outcome = rng.nextFloat() < rate ? 1 : 0;
      for (let s = 0; s < design.seeds; s++) {
        out.values.push(stable ? outcome : rng.nextFloat() < rate ? 1 : 0);
        out.items.push(item);
        out.clusters.push(c);
      }
    }
  });
  return out;
}

/** The μ whose logistic-normal mean E[expit(μ + σZ)] is `p`, by bisection over a fine quadrature. */
export function logitCentre(p: number, sd: number): number {
  const marginal = (mu: number) => {
    let sum = 0;
    let weight = 0;
    for (let z = -8; z <= 8; z += 0.002) {
      const density = Math.exp((-z * z) / 2);
      sum += expit(mu + sd * z) * density;
      weight += density;
    }
    return sum / weight;
  };
  let lo = -30;
  let hi = 30;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (marginal(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function expit(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
