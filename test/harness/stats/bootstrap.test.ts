import { describe, expect, it } from "vitest";
import { bootstrapMeanCI } from "../../../src/harness/stats/bootstrap.js";
import { LARGE_SAMPLE, normalMeanInterval } from "../../../src/harness/stats/large-sample.js";
import { createRng, type Rng } from "../../../src/harness/stats/rng.js";
import { normals } from "./synthetic.js";

describe("bootstrapMeanCI", () => {
  it("reports the sample mean inside its interval", () => {
    const values = [0.2, 0.5, 0.9, 0.1, 0.4, 0.7, 0.3];
    const result = bootstrapMeanCI(values, { seed: 1 });
    expect(result.mean).toBeCloseTo(3.1 / 7, 12);
    expect(result.n).toBe(7);
    expect(result.lo).toBeLessThan(result.mean);
    expect(result.hi).toBeGreaterThan(result.mean);
    // A resampled mean can never leave the range of the data.
    expect(result.lo).toBeGreaterThanOrEqual(0.1);
    expect(result.hi).toBeLessThanOrEqual(0.9);
  });

  it("gives an empty input mean 0 and n 0, not NaN", () => {
    expect(bootstrapMeanCI([], { seed: 1 })).toEqual({ mean: 0, lo: 0, hi: 0, n: 0 });
  });

  it("collapses to a point when every value is the same", () => {
    expect(bootstrapMeanCI([0.25, 0.25, 0.25], { seed: 1 })).toEqual({ mean: 0.25, lo: 0.25, hi: 0.25, n: 3 });
    expect(bootstrapMeanCI([4], { seed: 1 })).toEqual({ mean: 4, lo: 4, hi: 4, n: 1 });
  });

  it("widens as the level rises", () => {
    const values = normals(createRng(2), 30);
    const narrow = bootstrapMeanCI(values, { seed: 3, level: 0.8 });
    const wide = bootstrapMeanCI(values, { seed: 3, level: 0.99 });
    expect(wide.lo).toBeLessThan(narrow.lo);
    expect(wide.hi).toBeGreaterThan(narrow.hi);
  });

  it("gives identical output for the same seed and different draws for another", () => {
    const values = normals(createRng(4), 25);
    const a = bootstrapMeanCI(values, { seed: 10 });
    expect(bootstrapMeanCI(values, { seed: 10 })).toEqual(a);
    expect(bootstrapMeanCI(values, { seed: createRng(10) })).toEqual(a);
    const b = bootstrapMeanCI(values, { seed: 11 });
    expect(b.mean).toBe(a.mean);
    expect([b.lo, b.hi]).not.toEqual([a.lo, a.hi]);
  });

  it("refuses non-finite values and bad options", () => {
    expect(() => bootstrapMeanCI([1, Number.NaN], { seed: 1 })).toThrow(/^bootstrapMeanCI: values\[1\] must be a finite number, got NaN$/);
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, level: 1 })).toThrow(RangeError);
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, level: 0 })).toThrow(RangeError);
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, resamples: 0 })).toThrow(
      /^bootstrapMeanCI: resamples must be a positive integer, got 0$/,
    );
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, level: 1 })).toThrow(/^bootstrapMeanCI: level must be strictly between 0 and 1, got 1$/);
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, items: [1, 1], clusters: ["a", "b"] })).toThrow(
      /^bootstrapMeanCI: item 1 is labelled with two clusters/,
    );
  });

  it("reports the exact percentile of the resampled means", () => {
    // A scripted stream makes the resamples known: of [1, 2, 3, 4], draw positions
    // (0,0,0,0), (0,1,2,3), (3,3,3,3), (1,1,2,2) → means 1, 2.5, 4, 2.5 → sorted 1, 2.5, 2.5, 4.
    // Quantiles interpolate linearly between order statistics (position (R − 1)·q): the 2.5%
    // quantile sits 0.075 of the way from 1 to 2.5, the 97.5% one 0.925 of the way from 2.5 to 4.
    const draws = [0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 1, 1, 2, 2];
    const scripted: Rng = {
      nextInt: () => draws.shift()!,
      nextFloat: () => 0,
      shuffle: (items) => items.slice(),
      fork: () => scripted,
    };
    const { mean, lo, hi, n } = bootstrapMeanCI([1, 2, 3, 4], { seed: scripted, resamples: 4 });
    expect({ mean, n }).toEqual({ mean: 2.5, n: 4 });
    expect(lo).toBeCloseTo(1.1125, 12);
    expect(hi).toBeCloseTo(3.8875, 12);
  });

  it("resamples up to LARGE_SAMPLE values and uses the normal interval above it", () => {
    // A scripted stream that always draws position 0 makes every resampled mean values[0], so a
    // resampled interval collapses to it; the normal interval does not draw at all.
    const scripted: Rng = {
      nextInt: () => 0,
      nextFloat: () => 0,
      shuffle: (items) => items.slice(),
      fork: () => scripted,
    };
    const values = Array.from({ length: LARGE_SAMPLE + 1 }, (_, i) => i % 2);
    const atLimit = values.slice(1);
    expect(bootstrapMeanCI(atLimit, { seed: scripted, resamples: 10 })).toMatchObject({ lo: 1, hi: 1, n: LARGE_SAMPLE });
    const above = bootstrapMeanCI(values, { seed: scripted, resamples: 10 });
    expect(above).toEqual({ mean: 250 / 501, ...normalMeanInterval(values, 250 / 501, 0.95), n: LARGE_SAMPLE + 1 });
  });

  describe("with items and clusters", () => {
    it("averages the seeds of an item first, so repeating an ask adds no evidence", () => {
      // Three asks in three conversations, each measured identically under five seeds: the
      // interval is the one of the three ask values alone, and the design effect is 5.
      const asks = [0.2, 0.5, 0.9];
      const values = asks.flatMap((v) => [v, v, v, v, v]);
      const items = asks.flatMap((_, i) => [i, i, i, i, i]);
      const repeated = bootstrapMeanCI(values, { seed: 1, items, clusters: items });
      const once = bootstrapMeanCI(asks, { seed: 1, items: [0, 1, 2] });
      expect(repeated).toMatchObject({ mean: once.mean, lo: once.lo, hi: once.hi, n: 15, nItems: 3, nClusters: 3 });
      expect((repeated as { designEffect: number }).designEffect).toBeCloseTo(5 * (14 / 15) * (3 / 2), 9);
    });

    it("states the units it was computed on and does not depend on the seed", () => {
      const values = [0, 1, 1, 0, 1, 1, 1, 0];
      const structure = { items: [1, 2, 3, 4, 5, 6, 7, 8], clusters: ["a", "a", "b", "b", "c", "c", "d", "d"] };
      const a = bootstrapMeanCI(values, { seed: 1, ...structure });
      expect(a).toMatchObject({ n: 8, nItems: 8, nClusters: 4, clusteredBy: "cluster" });
      expect(bootstrapMeanCI(values, { seed: 2, ...structure })).toEqual(a);
      // Within the range of the item means, like every interval here.
      expect(a.lo).toBeGreaterThanOrEqual(0);
      expect(a.hi).toBeLessThanOrEqual(1);
    });

    it("gives an empty input mean 0, n 0 and no units, not NaN", () => {
      expect(bootstrapMeanCI([], { seed: 1, items: [] })).toEqual({
        mean: 0, lo: 0, hi: 0, n: 0, nItems: 0, nClusters: 0, clusteredBy: "item", designEffect: 1, se: 0, df: 1,
      });
    });

    it("collapses to the point of a single item, whose seeds are no evidence of spread", () => {
      const one = bootstrapMeanCI([0.2, 0.6], { seed: 1, items: [7, 7] });
      expect(one).toMatchObject({ lo: 0.4, hi: 0.4, n: 2, nItems: 1, nClusters: 1, se: 0 });
      expect(one.mean).toBeCloseTo(0.4, 15);
      // Two values that vary, yet no variance between items: a design effect of 0.
      expect((one as { designEffect: number }).designEffect).toBe(0);
    });

    it("reports a design effect of 1 for a single value, which has no variance to compare with", () => {
      expect(bootstrapMeanCI([0.7], { seed: 1, items: ["only"] })).toMatchObject({ mean: 0.7, lo: 0.7, hi: 0.7, designEffect: 1 });
    });

    it("reports a design effect of 1 when no value varies", () => {
      const flat = bootstrapMeanCI([0.3, 0.3, 0.3], { seed: 1, items: [1, 2, 3], clusters: [1, 2, 3] });
      expect(flat).toMatchObject({ mean: 0.3, lo: 0.3, hi: 0.3, designEffect: 1, se: 0 });
    });

    it("is the t interval, mean ± t·se, while it stays inside the item means' range", () => {
      const values = [0.1, 0.5, 0.4, 0.6, 0.45, 0.9];
      const ci = bootstrapMeanCI(values, { seed: 1, items: [1, 2, 3, 4, 5, 6] }) as { mean: number; lo: number; hi: number; se: number };
      expect(ci.lo).toBeGreaterThan(0.1);
      expect(ci.hi).toBeLessThan(0.9);
      expect(ci.mean - ci.lo).toBeCloseTo(ci.hi - ci.mean, 12);
      // df = 5 independent items: t(0.975, 5) = 2.5706.
      expect((ci.hi - ci.lo) / 2 / ci.se).toBeCloseTo(2.5706, 4);
    });

    it("is clipped to the range of the item means, at both ends", () => {
      // Four items, three at 1 and one at 0: mean ± t·se overshoots both 0 and 1.
      expect(bootstrapMeanCI([0, 1, 1, 1], { seed: 1, items: [1, 2, 3, 4] })).toMatchObject({ mean: 0.75, lo: 0, hi: 1 });
      expect(bootstrapMeanCI([1, 0, 0, 0], { seed: 1, items: [1, 2, 3, 4] })).toMatchObject({ mean: 0.25, lo: 0, hi: 1 });
    });

    it("is wider when the clusters disagree than when the same values are independent", () => {
      const values = [0, 0, 0, 0, 1, 1, 1, 1];
      const independent = bootstrapMeanCI(values, { seed: 1, items: [1, 2, 3, 4, 5, 6, 7, 8] });
      const clustered = bootstrapMeanCI(values, { seed: 1, items: [1, 2, 3, 4, 5, 6, 7, 8], clusters: [1, 1, 1, 1, 2, 2, 2, 2] });
      expect(clustered.hi - clustered.lo).toBeGreaterThan(independent.hi - independent.lo);
    });
  });
});
