// Clustered synthetic data for the calibration tests, shaped like a benchmark run: C clusters
// (conversations, scenarios) of 20–150 items (questions) each, every item measured under
// `seeds` seeds. Draws come from the seeded generator, so every run of the suite sees the same data.
import { errorFunction } from "simple-statistics";
import { sampleNormal, type Rng } from "../../../src/harness/stats/index.js";

export interface ClusteredDesign {
  clusters: number;
  seeds: number;
  /** sd of the cluster-level component w (shared by every item of a cluster). */
  sdCluster: number;
  /** sd of the item-level component u (shared by the seeds of an item). */
  sdItem: number;
  /** sd of the seed-level noise e. */
  sdSeed: number;
  /** 0/1 outcomes (recall-like) instead of continuous scores. */
  binary: boolean;
  /** True mean difference ablation − baseline (continuous: in score units; binary: on the latent scale). */
  shift: number;
  minItems?: number;
  maxItems?: number;
}

export const NULL_DESIGN = { seeds: 5, sdCluster: 0.15, sdItem: 1, sdSeed: 0.1, shift: 0 } as const;

export interface ClusteredSample {
  baseline: number[];
  ablation: number[];
  items: number[];
  clusters: number[];
}

/**
 * One data set of paired scores with a clustered difference.
 *
 * Continuous: baseline 0 and ablation d = shift + w_cluster + u_item + e_seed, so the true mean
 * difference is `shift`.
 *
 * Binary: each (item, seed) gives 0/1 outcomes to both systems. With probability 0.3 the systems
 * disagree, and the ablation is the one that succeeds with probability Φ(shift + w + u); otherwise
 * both get the same Bernoulli(0.4) outcome. For shift 0 the two systems are exchangeable and the
 * true mean difference is exactly 0, while the differences are clustered like recall's.
 */
export function clusteredSample(rng: Rng, design: ClusteredDesign): ClusteredSample {
  const { minItems = 20, maxItems = 150 } = design;
  const out: ClusteredSample = { baseline: [], ablation: [], items: [], clusters: [] };
  let item = 0;
  for (let c = 0; c < design.clusters; c++) {
    const size = minItems + rng.nextInt(maxItems - minItems + 1);
    const w = sampleNormal(rng, 0, design.sdCluster);
    for (let i = 0; i < size; i++, item++) {
      const u = sampleNormal(rng, 0, design.sdItem);
      for (let s = 0; s < design.seeds; s++) {
        const e = sampleNormal(rng, 0, design.sdSeed);
        if (design.binary) {
          const [b, a] = binaryPair(rng, normalCdf(design.shift + w + u + e));
          out.baseline.push(b);
          out.ablation.push(a);
        } else {
          out.baseline.push(0);
          out.ablation.push(design.shift + w + u + e);
        }
        out.items.push(item);
        out.clusters.push(c);
      }
    }
  }
  return out;
}

function binaryPair(rng: Rng, ablationWins: number): [number, number] {
  if (rng.nextFloat() < 0.3) return rng.nextFloat() < ablationWins ? [0, 1] : [1, 0];
  const both = rng.nextFloat() < 0.4 ? 1 : 0;
  return [both, both];
}

/** Φ(x), the standard normal distribution function. */
function normalCdf(x: number): number {
  return (1 + errorFunction(x / Math.SQRT2)) / 2;
}
