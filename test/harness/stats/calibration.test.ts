// Calibration of the statistics the summary reports, by simulation. The summary compares each
// ablation with the baseline through compareToBaseline and gives each ablation's mean through
// bootstrapMeanCI, both with items (asks, whose seeds are averaged first) and clusters
// (scenarios, conversations); these tests call exactly those functions, on data shaped like a
// benchmark run (see clustered-synthetic.ts), and check what their numbers promise:
//
// - a test at α = 0.05 calls about 5% of A-vs-A comparisons significant;
// - a 95% interval covers the true value about 95% of the time;
// - a true difference as large as the reported minimum detectable effect (MDE) is detected
//   about 80% of the time;
// - a family of comparisons that share their clusters, adjusted jointly by Westfall–Young, calls
//   any of them significant under a global null about 5% of the time at most (the family-wise
//   error rate), and finds an effect present in every cluster where Holm cannot.
//
// Every band is derived from the number of simulations behind it (see monte-carlo.ts): the true
// rate may be off its nominal value by a stated tolerance (the methods are small-sample
// approximations), and the observed share by Z = 3 Monte-Carlo standard errors on top.
//
// Two modes, with the same seeds: the fast default runs in `npm test` on few simulations, so its
// bands are wide; RECOLLECT_CALIBRATE=full (`npm run calibrate`) runs ten times as many, and its
// bands are as narrow as those allow. The fast run's null data sets are the first ones of the full run.
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { describe, expect, it } from "vitest";
import {
  bellMcCaffreyDf,
  bootstrapMeanCI,
  type ClusteredComparison,
  compareToBaseline,
  createRng,
  holm,
  reduceToClusters,
  type Rng,
  sampleNormal,
  westfallYoung,
} from "../../../src/harness/stats/index.js";
import {
  type ClusteredDesign,
  clusteredSample,
  NULL_DESIGN,
  shiftForDifference,
  trueAblationMean,
  trueMeanDifference,
  trueStandardError,
} from "./clustered-synthetic.js";
import { edgeSample, logitCentre, type EdgeDesign } from "./edge-synthetic.js";
import { type Band, percent, ratioBand, share, shareBand } from "./monte-carlo.js";
import { normals } from "./synthetic.js";

const FULL = process.env.RECOLLECT_CALIBRATE === "full";

const SIMULATIONS = FULL
  ? { nulls: 2000, atMde: 2000, offMde: 500, bootstrap: 1500, edges: 2000, families: 2000, familyPower: 500 }
  : { nulls: 200, atMde: 200, offMde: 40, bootstrap: 0, edges: 200, families: 200, familyPower: 40 };

/**
 * How far the methods' true rates may sit from nominal. CR2 intervals with Bell–McCaffrey df and
 * the percentile bootstrap are small-sample approximations: runs of 2000–4000 data sets per design
 * put their false-positive rates at 4.1–5.7% and coverages at 93.9–96.0%, within about a point
 * of nominal, so 1.5 points leaves room without admitting a wrong standard error (30% too small
 * gives 14–18% false positives). The power of a t test at its MDE is 80% only as far as the
 * noncentral t is approximated by a shifted central one: 79.5–80.8% at df 7 in the same runs, so
 * 2 points.
 */
const RATE_TOLERANCE = 0.015;
const POWER_TOLERANCE = 0.02;
/** CR2 is unbiased for the variance only when clusters share nothing; with w it came within 1% in the full runs. */
const MDE_TOLERANCE = 0.03;

interface NamedDesign {
  label: string;
  seed: number;
  design: ClusteredDesign;
  /**
   * Run in the fast default as well. The fast run keeps the designs with few clusters, where the
   * small-sample corrections work hardest and where the recorded experiments sit (8 scenarios,
   * 10 LoCoMo conversations); the others run in the full calibration only.
   */
  fast: boolean;
}

/** Ten clusters of very unequal, fixed sizes (Bell–McCaffrey df 7.1), as in a LoCoMo-sized run. */
const FIXED_SIZES = [20, 35, 50, 65, 80, 95, 110, 125, 140, 150];
const FEW_FIXED: NamedDesign[] = [false, true].map((binary) => ({
  label: `10 clusters of 20–150 asks (fixed sizes), ${binary ? "0/1 outcomes" : "continuous scores"}`,
  seed: binary ? 9011 : 9010,
  design: { ...NULL_DESIGN, clusters: 10, binary, sizes: FIXED_SIZES },
  fast: true,
}));

const DESIGNS: NamedDesign[] = [
  ...[false, true].map((binary) => ({
    label: `8 clusters of 20–150 asks, ${binary ? "0/1 outcomes" : "continuous scores"}`,
    seed: binary ? 9009 : 9008,
    design: { ...NULL_DESIGN, clusters: 8, binary },
    fast: true,
  })),
  ...FEW_FIXED,
  {
    label: "10 clusters that share nothing (an iid null), continuous scores",
    seed: 9012,
    design: { ...NULL_DESIGN, clusters: 10, binary: false, sdCluster: 0 },
    fast: false,
  },
  // Many small clusters, as a suite of hand-made scenarios with a few asks each.
  ...[false, true].map((binary) => ({
    label: `40 clusters of 5–40 asks, ${binary ? "0/1 outcomes" : "continuous scores"}`,
    seed: binary ? 9041 : 9040,
    design: { ...NULL_DESIGN, clusters: 40, binary, minItems: 5, maxItems: 40 },
    fast: false,
  })),
];

interface Run {
  /** p < 0.05 and, under a true effect, in its direction. */
  significant: boolean;
  /** The 95% interval of the difference covers the true difference. */
  coversDifference: boolean;
  /** bootstrapMeanCI's 95% interval of the ablation's own mean covers its true mean (0/1 outcomes). */
  coversAblationMean: boolean;
  mde: number;
}

/** `n` data sets of `design` compared as the summary compares them, each from its own fork of `seed`. */
function simulate(design: ClusteredDesign, seed: number, stream: string, n: number): Run[] {
  const root = createRng(seed);
  const difference = trueMeanDifference(design);
  const ablationMean = trueAblationMean(design);
  return Array.from({ length: n }, (_, t) => {
    const rng = root.fork(`${stream}/${t}`);
    const data = clusteredSample(rng, design);
    const structure = { items: data.items, clusters: data.clusters };
    const c = compareToBaseline(data.baseline, data.ablation, { seed: rng.fork("compare"), ...structure }) as ClusteredComparison;
    const own = design.binary ? bootstrapMeanCI(data.ablation, { seed: rng.fork("mean"), ...structure, bounded: true }) : undefined;
    return {
      // Under a null either direction is a false positive; under an effect only its own is a detection.
      significant: c.p < 0.05 && (design.shift === 0 || Math.sign(c.meanDiff) === Math.sign(difference)),
      coversDifference: c.lo <= difference && difference <= c.hi,
      coversAblationMean: own === undefined || (own.lo <= ablationMean && ablationMean <= own.hi),
      // The calibration designs have 8 clusters or more and variance, so an MDE at α = 0.05 always exists.
      mde: c.mde!,
    };
  });
}

/** Simulated once, on first use, and shared by the tests that read it. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const nullRuns = new Map(DESIGNS.map((d) => [d, once(() => simulate(d.design, d.seed, "null", SIMULATIONS.nulls))]));

/** The full calibration prints every observed share beside its band, so a run shows how much room was left. */
function report(value: number, band: Band): void {
  if (FULL) console.log(`${expect.getState().currentTestName}: ${value.toFixed(4)} (band ${band.lo.toFixed(4)}–${band.hi.toFixed(4)})`);
}

function expectWithin(value: number, band: Band): void {
  report(value, band);
  expect(value).toBeGreaterThanOrEqual(band.lo);
  expect(value).toBeLessThanOrEqual(band.hi);
}

describe(`compareToBaseline and bootstrapMeanCI under clustered nulls (${SIMULATIONS.nulls} data sets per design)`, () => {
  const falsePositives = shareBand(0.05, RATE_TOLERANCE, SIMULATIONS.nulls);
  const coverage = shareBand(0.95, RATE_TOLERANCE, SIMULATIONS.nulls);
  for (const named of DESIGNS) {
    describe.skipIf(!FULL && !named.fast)(named.label, () => {
      const runs = nullRuns.get(named)!;
      it(`calls ${percent(falsePositives)} of A-vs-A comparisons significant at α = 0.05`, () => {
        expectWithin(share(runs().map((r) => r.significant)), falsePositives);
      });
      it(`covers the true difference, 0, with its 95% interval in ${percent(coverage)} of data sets`, () => {
        expectWithin(share(runs().map((r) => r.coversDifference)), coverage);
      });
      if (named.design.binary) {
        // The summary's interval of each ablation's own mean recall: 0/1 values, true mean 0.43,
        // bounded in [0, 1], so the clustered Wilson interval. Its effective sample size makes it
        // up to a point more conservative than the t interval with 8 unequal clusters (97.7% in
        // the full run), so its band allows 3 points above nominal and the usual 1.5 below.
        const bounded = { lo: coverage.lo, hi: shareBand(0.95, 0.03, SIMULATIONS.nulls).hi };
        it(`covers the ablation's true mean with bootstrapMeanCI's 95% interval in ${percent(bounded)} of data sets`, () => {
          expectWithin(share(runs().map((r) => r.coversAblationMean)), bounded);
        });
      }
    });
  }
});

describe(`the minimum detectable effect compareToBaseline reports (${SIMULATIONS.atMde} data sets at it)`, () => {
  // Fixed cluster sizes give the design one Bell–McCaffrey df, so every reported MDE is the same
  // multiple of its data set's se, and one true MDE. The design's reported MDE is the
  // root-mean-square of the reported MDEs over its null data sets: CR2 estimates the variance
  // (nearly) without bias, so the RMS estimates the MDE at the true se, where the mean or the
  // median of the MDEs would run 3–7% low at df 7 (Jensen) and cost 3–5 points of power.
  const power = shareBand(0.8, POWER_TOLERANCE, SIMULATIONS.atMde);
  const coverage = shareBand(0.95, RATE_TOLERANCE, SIMULATIONS.atMde);
  for (const named of FEW_FIXED) {
    describe(named.label, () => {
      const reported = once(() => {
        const squares = nullRuns.get(named)!().map((r) => r.mde * r.mde);
        const meanSquare = squares.reduce((a, b) => a + b, 0) / squares.length;
        const sdSquare = Math.sqrt(squares.reduce((a, b) => a + (b - meanSquare) ** 2, 0) / (squares.length - 1));
        // Delta method: the RMS's relative se is half the mean square's.
        return { mde: Math.sqrt(meanSquare), relativeSe: sdSquare / meanSquare / Math.sqrt(squares.length) / 2 };
      });
      const at = (factor: number, n: number) =>
        once(() => {
          const difference = factor * reported().mde;
          const shifted = { ...named.design, shift: shiftForDifference(named.design, difference) };
          return simulate(shifted, named.seed, `mde×${factor}`, n);
        });
      const atMde = at(1, SIMULATIONS.atMde);

      if (!named.design.binary) {
        it("is on average (root-mean-square) the design's true MDE, (t₀.₉₇₅ + t₀.₈₀)·se at the true se", () => {
          const n = FIXED_SIZES.reduce((a, b) => a + b, 0);
          const df = bellMcCaffreyDf(Float64Array.from(FIXED_SIZES), n);
          const se = trueStandardError({ ...named.design, sizes: FIXED_SIZES });
          const truth = (tQuantile(0.975, df) + tQuantile(0.8, df)) * se;
          expectWithin(reported().mde / truth, ratioBand(MDE_TOLERANCE, reported().relativeSe));
        });
      }
      it(`is detected in ${percent(power)} of data sets whose true difference it is`, () => {
        expectWithin(share(atMde().map((r) => r.significant)), power);
      });
      it(`is detected too rarely at half of it and too often at twice it for that band (${SIMULATIONS.offMde} data sets each)`, () => {
        // The band can catch a wrong MDE: power falls to about 30% at half the MDE and rises to
        // about 100% at twice it.
        const half = share(at(0.5, SIMULATIONS.offMde)().map((r) => r.significant));
        const twice = share(at(2, SIMULATIONS.offMde)().map((r) => r.significant));
        report(half, power);
        report(twice, power);
        expect(half).toBeLessThan(power.lo);
        expect(twice).toBeGreaterThan(power.hi);
      });
      it(`covers the true difference at the MDE with its 95% interval in ${percent(coverage)} of data sets`, () => {
        expectWithin(share(atMde().map((r) => r.coversDifference)), coverage);
      });
    });
  }
});

// Full calibration only: 100 resamples of 100 values per sample make it the costliest per
// simulation, and the fast run's few samples would leave a band (86–100%) too wide to mean much.
describe.skipIf(!FULL)("bootstrapMeanCI on independent values", () => {
  const coverage = shareBand(0.95, RATE_TOLERANCE, SIMULATIONS.bootstrap);
  it(`covers the true mean at the 95% level in ${percent(coverage)} of ${SIMULATIONS.bootstrap} samples`, () => {
    // Samples of n = 100 from N(3, 2²). Percentile bootstrap intervals run slightly narrow at
    // small n (about 94.6% at n = 100), well within the tolerance.
    const root = createRng(2024);
    const covered = Array.from({ length: SIMULATIONS.bootstrap }, (_, t) => {
      const rng = root.fork(`coverage/${t}`);
      const { lo, hi } = bootstrapMeanCI(normals(rng, 100, 3, 2), { seed: rng.fork("bootstrap"), resamples: 1000 });
      return lo <= 3 && 3 <= hi;
    });
    expectWithin(share(covered), coverage);
  });
});

describe("exact specifications of the sign-flip test at the edges", () => {
  it("gives +1/3 in 4 clusters, computed as 2/3 − 1/3 and as 1 − 2/3, its exact p 0.125", () => {
    // Without a tolerance on se the rounding residue (se ≈ 2e-17) made t enormous and p 5e-324.
    const clusters = [1, 2, 3, 4];
    const c = compareToBaseline([1 / 3, 0, 1 / 3, 0], [2 / 3, 1 / 3, 2 / 3, 1 / 3], { seed: 1, clusters }) as ClusteredComparison;
    expect(c.p).toBe(0.125);
    expect(c.method).toBe("exact-sign-flip");
  });

  it("gives a designed failure on each of 5 seeds (the seed as the unit) its exact p 0.0625", () => {
    const seeds = [1, 2, 3, 4, 5];
    const c = compareToBaseline([1, 2 / 3, 1, 2 / 3, 1], [2 / 3, 1 / 3, 2 / 3, 1 / 3, 2 / 3], { seed: 1, items: seeds, clusters: seeds });
    expect(c.p).toBe(0.0625);
  });
});

/**
 * Eight clusters of 4–100 asks (Bell–McCaffrey df about 2.6), five seeds, most asks answered the
 * same under every seed, and a cluster effect of sd 0.7 on the logit scale: the rates of the
 * clusters differ as conversations' do. The symmetric t interval covers 90% (p = 0.05) and 92%
 * (p = 0.85) of the time here; the clustered Wilson interval must cover at least 93% (the full
 * run: 96% and 94%). It may cover more: near a bound, a score interval with an effective sample
 * size leans conservative, which costs width, not trust.
 */
const EDGE_SIZES = [4, 6, 10, 16, 24, 40, 60, 100];

describe(`bootstrapMeanCI's interval of a bounded mean near 0 and 1, 8 unequal clusters (${SIMULATIONS.edges} data sets each)`, () => {
  const coverage = shareBand(0.95, 0.02, SIMULATIONS.edges);
  for (const p of [0.05, 0.85]) {
    it(`covers a true mean of ${p} in at least ${(100 * coverage.lo).toFixed(1)}% of data sets`, () => {
      const design: EdgeDesign = { p, sizes: EDGE_SIZES, sdCluster: 0.7, seeds: 5, stable: 0.8 };
      const centre = logitCentre(p, design.sdCluster);
      const root = createRng(p === 0.05 ? 9105 : 9185);
      const covered = Array.from({ length: SIMULATIONS.edges }, (_, t) => {
        const rng = root.fork(`edge/${t}`);
        const { values, items, clusters } = edgeSample(rng, design, centre);
        const { lo, hi } = bootstrapMeanCI(values, { seed: 1, items, clusters, bounded: true });
        return lo <= p && p <= hi;
      });
      const observed = share(covered);
      report(observed, { lo: coverage.lo, hi: 1 });
      expect(observed).toBeGreaterThanOrEqual(coverage.lo);
    });
  }
});

/**
 * A family as a recorded experiment has one: 3 metrics × 12 ablations, each compared with the
 * baseline on the same asks of C unequal clusters. Every comparison's difference on an ask mixes a
 * part shared by the whole family (the ask is hard or easy for every policy), a part shared by the
 * ablation's three metrics, and its own noise, each also with a cluster-level part, so the 36
 * comparisons are strongly and unevenly correlated. All parts are centred normals, so under the
 * global null every cluster's differences are jointly as likely to have the opposite sign, the
 * null the joint sign flips assume; `shift` adds a true effect on every ask.
 */
const FAMILY = { metrics: 3, ablations: 12 } as const;
/** Unequal clusters, a fifth of a LoCoMo run's asks: the exact test's null does not depend on their number, and the fast run stays fast. */
const FAMILY_SIZES: Record<number, readonly number[]> = { 8: [4, 8, 12, 16, 20, 24, 28, 30], 10: FIXED_SIZES.map((n) => n / 5) };

function familyTotals(rng: Rng, sizes: readonly number[], shift: number): number[][] {
  const m = FAMILY.metrics * FAMILY.ablations;
  const values: number[][] = Array.from({ length: m }, () => []);
  const clusters: number[] = [];
  sizes.forEach((size, c) => {
    const shared = sampleNormal(rng, 0, 0.15);
    const byAblation = Array.from({ length: FAMILY.ablations }, () => sampleNormal(rng, 0, 0.1));
    const own = Array.from({ length: m }, () => sampleNormal(rng, 0, 0.05));
    for (let i = 0; i < size; i++) {
      clusters.push(c);
      const ask = sampleNormal(rng, 0, 1);
      const askByAblation = Array.from({ length: FAMILY.ablations }, () => sampleNormal(rng, 0, 0.7));
      for (let j = 0; j < m; j++) {
        const a = j % FAMILY.ablations;
        values[j].push(shift + shared + byAblation[a] + own[j] + ask + askByAblation[a] + sampleNormal(rng, 0, 0.5));
      }
    }
  });
  // The reduction every clustered comparison makes: one item per ask, summed per cluster.
  return values.map((v) => Array.from(reduceToClusters("family", v, { clusters }).totals));
}

describe(`westfallYoung over a family of ${FAMILY.metrics * FAMILY.ablations} comparisons sharing their clusters`, () => {
  for (const clusters of [8, 10]) {
    describe(`${clusters} clusters of ${FAMILY_SIZES[clusters][0]}–${FAMILY_SIZES[clusters].at(-1)} asks`, () => {
      const sizes = FAMILY_SIZES[clusters];
      const root = createRng(9300 + clusters);
      // The exact test is exact and Westfall–Young's maxT is exact under the global null, so the
      // only allowance beyond Monte-Carlo error is the test's discreteness, which errs low.
      const familyWise = shareBand(0.05, RATE_TOLERANCE, SIMULATIONS.families);
      it(`calls any comparison significant under the global null in ${percent(familyWise)} of ${SIMULATIONS.families} families`, () => {
        const anySignificant = Array.from({ length: SIMULATIONS.families }, (_, t) =>
          westfallYoung(familyTotals(root.fork(`null/${t}`), sizes, 0)).some((p) => p < 0.05),
        );
        expectWithin(share(anySignificant), familyWise);
      });

      it(`finds an effect on every ask significant after adjustment, where Holm over the family cannot (${SIMULATIONS.familyPower} families)`, () => {
        // Shift 1.5 against an sd of a cluster's mean difference of 0.7 at most (4 asks): the effect
        // shows in nearly every cluster of nearly every comparison. The families are the independent
        // units, so the band is over them: each contributes the share of its comparisons found.
        let joint = 0;
        let holmed = 0;
        for (let t = 0; t < SIMULATIONS.familyPower; t++) {
          const totals = familyTotals(root.fork(`effect/${t}`), sizes, 1.5);
          joint += westfallYoung(totals).filter((p) => p < 0.05).length / totals.length;
          // The marginal exact p of each comparison, Holm-adjusted as the family used to be.
          const marginal = totals.map((row) => westfallYoung([row])[0]);
          holmed += holm(marginal).filter((p) => p < 0.05).length;
        }
        const power = shareBand(0.95, 0.05, SIMULATIONS.familyPower);
        report(joint / SIMULATIONS.familyPower, power);
        expect(joint / SIMULATIONS.familyPower).toBeGreaterThanOrEqual(power.lo);
        expect(holmed).toBe(0);
      });
    });
  }

  it("gives one comparison its marginal exact p, the one compareToBaseline reports", () => {
    const rng = createRng(9320);
    for (let t = 0; t < 20; t++) {
      const data = clusteredSample(rng.fork(String(t)), { ...NULL_DESIGN, clusters: 9, binary: t % 2 === 0, minItems: 5, maxItems: 30 });
      const c = compareToBaseline(data.baseline, data.ablation, { seed: 1, items: data.items, clusters: data.clusters }) as ClusteredComparison;
      expect(c.method).toBe("exact-sign-flip");
      expect(westfallYoung([c.clusterTotals.totals])).toEqual([c.p]);
    }
  });

  it("gives the strongest of 36 comparisons 2/1024 when every one is positive in all 10 clusters", () => {
    const totals = familyTotals(createRng(9321), FIXED_SIZES, 2);
    expect(totals.every((row) => row.every((t) => t > 0))).toBe(true);
    const adjusted = westfallYoung(totals);
    expect(Math.min(...adjusted)).toBe(2 / 1024);
  });
});
