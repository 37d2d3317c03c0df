import { describe, expect, it } from "vitest";
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import { minimumDetectableEffect } from "../../../src/harness/stats/cluster-robust.js";
import { type ClusteredComparison, compareToBaseline, TIE_TOLERANCE } from "../../../src/harness/stats/compare.js";
import { createRng } from "../../../src/harness/stats/rng.js";
import { normals, pairedScores } from "./synthetic.js";

describe("compareToBaseline", () => {
  it("takes differences as ablation minus baseline and counts wins, ties and losses per pair", () => {
    const baseline = [0.5, 0.5, 0.5, 0.5, 1.0];
    const ablation = [0.7, 0.5, 0.5 + 1e-13, 0.2, 0.8];
    const result = compareToBaseline(baseline, ablation, { seed: 1 });
    expect(result).toMatchObject({ n: 5, wins: 1, ties: 2, losses: 2 });
    expect(result.baselineMean).toBeCloseTo(0.6, 12);
    expect(result.ablationMean).toBeCloseTo(0.54, 12);
    expect(result.meanDiff).toBeCloseTo(-0.06, 12);
    expect(result.lo).toBeLessThanOrEqual(result.meanDiff);
    expect(result.hi).toBeGreaterThanOrEqual(result.meanDiff);
    expect(result.p).toBeGreaterThan(0);
    expect(result.p).toBeLessThanOrEqual(1);
  });

  it("counts a difference of exactly TIE_TOLERANCE, either way, as a tie", () => {
    const result = compareToBaseline([0, TIE_TOLERANCE, 0, 0], [TIE_TOLERANCE, 0, 2 * TIE_TOLERANCE, -2 * TIE_TOLERANCE], { seed: 1 });
    expect(result).toMatchObject({ wins: 1, ties: 2, losses: 1 });
  });

  it("refuses unpaired samples", () => {
    expect(() => compareToBaseline([1, 2, 3], [1, 2], { seed: 1 })).toThrow(RangeError);
  });

  it("reports an empty comparison as no difference", () => {
    expect(compareToBaseline([], [], { seed: 1 })).toEqual({
      n: 0, baselineMean: 0, ablationMean: 0, meanDiff: 0, lo: 0, hi: 0, p: 1, wins: 0, ties: 0, losses: 0,
    });
  });

  it("gives identical output for the same seed and different draws for another", () => {
    const { baseline, ablation } = pairedScores(createRng(3), 30, { rho: 0.5, shift: 0.2 });
    const a = compareToBaseline(baseline, ablation, { seed: 1 });
    expect(compareToBaseline(baseline, ablation, { seed: 1 })).toEqual(a);
    const b = compareToBaseline(baseline, ablation, { seed: 2 });
    expect([b.lo, b.hi, b.p]).not.toEqual([a.lo, a.hi, a.p]);
  });

  it("draws the interval and the test from the seed's forks for each, as recorded results did", () => {
    // Twenty differences of distinct sizes: the test resamples, and its p of about 0.046 is
    // close enough to 0.05 that the draws matter. These values pin which streams are drawn.
    const diffs = [0.02, 0.17, 0.22, -0.13, 0.34, 0.12, 0.25, 0.07, -0.2, 0.19, 0.3, 0.01, 0.14, -0.28, 0.23, 0.09, -0.03, 0.32, 0.05, -0.16];
    const result = compareToBaseline(diffs.map(() => 0), diffs, { seed: 1, bootstrapResamples: 200, testResamples: 999 });
    expect(result).toMatchObject({ lo: 0.004837500000000026, hi: 0.1490375, p: 0.048 });
  });

  it("keeps the p-value when only the bootstrap resample count changes", () => {
    const { baseline, ablation } = pairedScores(createRng(4), 30, { rho: 0.5, shift: 0.2 });
    const a = compareToBaseline(baseline, ablation, { seed: 9, bootstrapResamples: 500 });
    const b = compareToBaseline(baseline, ablation, { seed: 9, bootstrapResamples: 800 });
    expect(b.p).toBe(a.p);
  });

  it("calls 2–8% of A-vs-A comparisons significant at α = 0.05", () => {
    // 400 comparisons of two independent samples from the same distribution, 40 pairs each.
    // A valid test is significant 5% of the time; the standard error over 400 is 1.1 points.
    const root = createRng(77);
    const trials = 400;
    let significant = 0;
    for (let t = 0; t < trials; t++) {
      const rng = root.fork(`a-vs-a/${t}`);
      const result = compareToBaseline(normals(rng, 40), normals(rng, 40), {
        seed: rng.fork("compare"),
        testResamples: 1000,
        bootstrapResamples: 100,
      });
      if (result.p < 0.05) significant++;
    }
    const share = significant / trials;
    expect(share).toBeGreaterThanOrEqual(0.02);
    expect(share).toBeLessThanOrEqual(0.08);
  });

  it("detects a half-sd shift over 40 pairs in at least 90% of trials", () => {
    // Scores of both systems have sd 1 and, being run on the same (ask, seed), correlate at 0.75
    // within a pair; the ablation is shifted up by 0.5 sd. The paired differences then have
    // sd 0.71, and a paired test at α = 0.05 has power of about 0.99.
    const root = createRng(78);
    let detected = 0;
    for (let t = 0; t < 100; t++) {
      const rng = root.fork(`shift/${t}`);
      const { baseline, ablation } = pairedScores(rng, 40, { rho: 0.75, shift: 0.5 });
      const result = compareToBaseline(baseline, ablation, {
        seed: rng.fork("compare"),
        testResamples: 1000,
        bootstrapResamples: 100,
      });
      if (result.p < 0.05 && result.meanDiff > 0) detected++;
    }
    expect(detected).toBeGreaterThanOrEqual(90);
  });

  it("has the power theory predicts when the differences themselves shift by half an sd", () => {
    // Differences ~ N(0.5, 1) over 40 pairs: a two-sided test at α = 0.05 has power of about
    // 0.88. Over 200 trials (standard error 2.3 points) the detection rate should sit in
    // 0.80–0.95; a test that is too cautious or too eager falls outside.
    const root = createRng(79);
    const trials = 200;
    let detected = 0;
    for (let t = 0; t < trials; t++) {
      const rng = root.fork(`power/${t}`);
      const ablation = normals(rng, 40, 0.5);
      const result = compareToBaseline(new Array<number>(40).fill(0), ablation, {
        seed: rng.fork("compare"),
        testResamples: 1000,
        bootstrapResamples: 100,
      });
      if (result.p < 0.05) detected++;
    }
    expect(detected / trials).toBeGreaterThanOrEqual(0.8);
    expect(detected / trials).toBeLessThanOrEqual(0.95);
  });

  describe("with items and clusters", () => {
    // Two conversations × two asks × three seeds; the ablation gains on conversation x only.
    const items = ["x1", "x1", "x1", "x2", "x2", "x2", "y1", "y1", "y1", "y2", "y2", "y2"];
    const clusters = items.map((item) => item[0]);
    const baseline = [0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1];
    const ablation = [1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1];

    it("averages seeds per item, counts wins per item and states the units", () => {
      const c = compareToBaseline(baseline, ablation, { seed: 1, items, clusters }) as ClusteredComparison;
      expect(c).toMatchObject({ n: 12, nItems: 4, nClusters: 2, clusteredBy: "cluster", wins: 1, ties: 3, losses: 0 });
      expect(c.meanDiff).toBeCloseTo(2 / 3 / 4, 12);
      // The totals the exact test flips, labelled so other comparisons over x and y align with them.
      expect(c.clusterTotals.labels).toEqual(["x", "y"]);
      expect(c.clusterTotals.totals[0]).toBeCloseTo(2 / 3, 12);
      expect(c.clusterTotals.totals[1]).toBe(0);
      expect(c.baselineMean).toBeCloseTo(0.5, 12);
      expect(c.ablationMean).toBeCloseTo(0.5 + 2 / 3 / 4, 12);
      // Two clusters, one with no difference: with one degree of freedom, no evidence at all.
      expect(c.p).toBeGreaterThan(0.3);
      // Two clusters: the exact test's smallest p is 2/4, so no effect is detectable at 5%, and there is no MDE.
      expect(c.mde).toBeUndefined();
      expect(c.designEffect).toBeGreaterThan(0);
    });

    it("refuses labels that do not match the values, naming itself", () => {
      expect(() => compareToBaseline(baseline, ablation, { seed: 1, items: items.slice(1) })).toThrow(
        /^compareToBaseline: items must have one label per value \(12\), got 11$/,
      );
    });

    it("gives identical data identical intervals and p-values, whatever seed stream labels them", () => {
      const root = createRng(3);
      const a = compareToBaseline(baseline, ablation, { seed: root.fork("no-touch"), items, clusters });
      const b = compareToBaseline(baseline, ablation, { seed: root.fork("pooled"), items, clusters });
      expect(b).toEqual(a);
    });

    it("finds little evidence in a single differing cluster among sixteen (hand-computed t = 1 on 15 df)", () => {
      // Sixteen clusters of ten (more than 12, so the t test decides); only the first differs, by
      // 1 on every item. Mean m = 1/16; the residual totals are 150/16 once and −10/16 fifteen
      // times, so the CR2 variance is ((150/16)² + 15·(10/16)²) / (15/16) / 160² = 1/256 and
      // se = 1/16 = m: t = 1, and with equal sizes df = 15, so p = 2·(1 − T₁₅(1)).
      const labels = Array.from({ length: 160 }, (_, i) => Math.floor(i / 10));
      const base = new Array<number>(160).fill(0);
      const abl = labels.map((c) => (c === 0 ? 1 : 0));
      const c = compareToBaseline(base, abl, { seed: 1, clusters: labels }) as ClusteredComparison;
      expect(c.method).toBe("cr2-t");
      expect(c.meanDiff).toBe(0.0625);
      expect(c.se).toBeCloseTo(0.0625, 12);
      expect(c.df).toBeCloseTo(15, 9);
      expect(c.p).toBeCloseTo(2 * (1 - tCdf(1, 15)), 9);
      expect(c.lo).toBeLessThanOrEqual(0);
    });

    it("decides by the exact sign-flip test with 12 clusters or fewer: one differing cluster of eight is no evidence", () => {
      // Flipping the seven zero totals changes nothing, and flipping the one non-zero total keeps |sum|: p = 1.
      const labels = Array.from({ length: 80 }, (_, i) => Math.floor(i / 10));
      const abl = labels.map((c) => (c === 0 ? 1 : 0));
      const c = compareToBaseline(new Array<number>(80).fill(0), abl, { seed: 1, clusters: labels }) as ClusteredComparison;
      expect(c).toMatchObject({ method: "exact-sign-flip", p: 1, smallestP: 2 / 256 });
      expect(c.lo).toBeLessThanOrEqual(0);
    });

    it("gives the rounding case its exact p: +1/3 in 4 clusters computed two ways is p = 0.125, not 5e-324", () => {
      const clusters = [1, 2, 3, 4];
      const c = compareToBaseline([1 / 3, 2 / 3, 1 / 3, 2 / 3], [2 / 3, 1, 2 / 3, 1], { seed: 1, clusters }) as ClusteredComparison;
      expect(c.p).toBe(0.125);
      expect(c.se).toBe(0);
      // Below 2/2^4 nothing is detectable, and with se 0 there is no MDE either.
      expect(c.mde).toBeUndefined();
    });

    it("with seeds as the unit, a loss on each of 5 seeds has the exact p 0.0625", () => {
      const seeds = [1, 2, 3, 4, 5];
      const c = compareToBaseline([2 / 3, 1, 2 / 3, 1, 2 / 3], [1 / 3, 2 / 3, 1 / 3, 2 / 3, 1 / 3], { seed: 1, items: seeds, clusters: seeds });
      expect(c.p).toBe(0.0625);
    });

    it("clips its interval to the bounds differences can take, never to the data", () => {
      // A loss of 1/3 on each of 5 seeds cannot be rejected at 5% (smallest p 0.0625): the interval is
      // everything a difference of [0, 1] values can be, and it contains 0 as the test says.
      const seeds = [1, 2, 3, 4, 5];
      const c = compareToBaseline(seeds.map(() => 2 / 3), seeds.map(() => 1 / 3), { seed: 1, items: seeds, clusters: seeds, bounds: [0, 1] });
      expect([c.lo, c.hi]).toEqual([-1, 1]);
    });

    it("computes the MDE at the level it is given, and none when the test cannot reach that level", () => {
      const labels = Array.from({ length: 160 }, (_, i) => Math.floor(i / 10));
      const abl = labels.map((c, i) => (c < 4 ? 1 : 0) + (i % 3) / 10);
      const base = new Array<number>(160).fill(0);
      const at05 = compareToBaseline(base, abl, { seed: 1, clusters: labels }) as ClusteredComparison;
      const at001 = compareToBaseline(base, abl, { seed: 1, clusters: labels, mdeAlpha: 0.001 }) as ClusteredComparison;
      expect(at05.mde).toBeCloseTo(minimumDetectableEffect(at05.se, at05.df), 12);
      expect(at001.mde).toBeCloseTo(minimumDetectableEffect(at05.se, at05.df, { alpha: 0.001 }), 12);
      // Eight clusters: the exact test's smallest p is 2/256, above α = 0.001.
      const eight = labels.slice(0, 80);
      const few = compareToBaseline(base.slice(0, 80), abl.slice(0, 80), { seed: 1, clusters: eight, mdeAlpha: 0.001 }) as ClusteredComparison;
      expect(few.mde).toBeUndefined();
      expect(few.smallestP).toBe(2 / 256);
    });

    it("falls back to the exact sign-flip test when every cluster agrees exactly (no variance)", () => {
      // Ten seeds, each the same loss of 1: se is 0, and of 2^10 sign assignments only
      // all-minus and all-plus reach |sum| 10, so p = 2/1024; never 0.
      const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
      const c = compareToBaseline(seeds.map(() => 1), seeds.map(() => 0), { seed: 1, items: seeds, clusters: seeds }) as ClusteredComparison;
      expect(c.p).toBeCloseTo(2 / 1024, 15);
      expect(c.method).toBe("exact-sign-flip");
      expect(c.mde).toBeUndefined();
      // Every non-trivial assignment ties with the observed sum only at the mean: the interval is the point −1.
      for (const end of [c.lo, c.meanDiff, c.hi]) expect(end).toBeCloseTo(-1, 6);
    });
  });
});
