// Clustered synthetic data for the calibration tests, shaped like a benchmark run: C clusters
// (conversations, scenarios) of 20–150 items (questions) each, every item measured under
// `seeds` seeds. Draws come from the seeded generator, so every run of the suite sees the same data.
import { errorFunction, probit } from "simple-statistics";
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
  /**
   * Items per cluster, fixed (one entry per cluster) instead of drawn from minItems–maxItems: a
   * design with fixed sizes has one true standard error and one Bell–McCaffrey df, so one true
   * minimum detectable effect.
   */
  sizes?: readonly number[];
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
  if (design.sizes !== undefined && design.sizes.length !== design.clusters) {
    throw new RangeError(`clusteredSample: ${design.sizes.length} sizes for ${design.clusters} clusters`);
  }
  for (let c = 0; c < design.clusters; c++) {
    const size = design.sizes?.[c] ?? minItems + rng.nextInt(maxItems - minItems + 1);
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

/** The sd of the latent score shift + w + u + e around `shift`. */
function latentSd(design: ClusteredDesign): number {
  return Math.sqrt(design.sdCluster ** 2 + design.sdItem ** 2 + design.sdSeed ** 2);
}

/**
 * The true mean difference (ablation − baseline) of a design. Continuous: `shift`. Binary: the
 * systems disagree with probability 0.3 and the ablation then wins with probability Φ(X),
 * X ~ N(shift, σ²), so the mean difference is 0.3·(2·E[Φ(X)] − 1), with E[Φ(X)] = Φ(shift / √(1 + σ²)).
 */
export function trueMeanDifference(design: ClusteredDesign): number {
  // Exactly 0 without a shift (the systems are exchangeable), where Φ(0) computed through
  // simple-statistics' errorFunction is off by 1.5e-8 and would make a null look like a small effect.
  if (!design.binary || design.shift === 0) return design.shift;
  return 0.3 * (2 * normalCdf(design.shift / Math.sqrt(1 + latentSd(design) ** 2)) - 1);
}

/** The true mean of the ablation's own scores: binary, 0.3·E[Φ(X)] + 0.7·0.4 (see trueMeanDifference). */
export function trueAblationMean(design: ClusteredDesign): number {
  if (!design.binary) return design.shift;
  return 0.3 * normalCdf(design.shift / Math.sqrt(1 + latentSd(design) ** 2)) + 0.28;
}

/** The `shift` that gives a design the true mean difference `difference` (the inverse of trueMeanDifference). */
export function shiftForDifference(design: ClusteredDesign, difference: number): number {
  if (!design.binary) return difference;
  if (Math.abs(difference) >= 0.3) throw new RangeError(`shiftForDifference: a binary design's difference stays below 0.3, got ${difference}`);
  return Math.sqrt(1 + latentSd(design) ** 2) * probit((difference / 0.3 + 1) / 2);
}

/**
 * The true standard error of the item-weighted mean difference of a continuous design with fixed
 * sizes: Var = Σ_c (n_c²·σ_w² + n_c·(σ_u² + σ_e²/seeds)) / N².
 */
export function trueStandardError(design: ClusteredDesign & { sizes: readonly number[] }): number {
  if (design.binary) throw new RangeError("trueStandardError: continuous designs only");
  const n = design.sizes.reduce((a, b) => a + b, 0);
  const perItem = design.sdItem ** 2 + design.sdSeed ** 2 / design.seeds;
  let v = 0;
  for (const size of design.sizes) v += size * size * design.sdCluster ** 2 + size * perItem;
  return Math.sqrt(v) / n;
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
