// Calibration of the clustered inference, by simulation: under nulls shaped like a benchmark run
// (questions nested in conversations, each asked under five seeds) a test at α = 0.05 must call
// 2–8% of A-vs-A comparisons significant, and 95% intervals must cover the true difference.
// The treatment of every (ask, seed) as independent fails this badly (the first test shows how),
// which is why the harness passes items and clusters. The plain percentile bootstrap is
// calibrated here too, on independent normal samples.
import { describe, expect, it } from "vitest";
import { bootstrapMeanCI, compareToBaseline, createRng, type ClusteredComparison } from "../../../src/harness/stats/index.js";
import { clusteredSample, NULL_DESIGN } from "./clustered-synthetic.js";
import { normals } from "./synthetic.js";

const NULLS = 400;

interface Calibration {
  falsePositives: number;
  coverage: number;
}

function calibrate(clusters: number, binary: boolean): Calibration {
  const root = createRng(9000 + clusters + (binary ? 1 : 0));
  let falsePositives = 0;
  let covered = 0;
  for (let t = 0; t < NULLS; t++) {
    const rng = root.fork(`null/${t}`);
    const data = clusteredSample(rng, { ...NULL_DESIGN, clusters, binary });
    const c = compareToBaseline(data.baseline, data.ablation, { seed: 1, items: data.items, clusters: data.clusters });
    if (c.p < 0.05) falsePositives++;
    if (c.lo <= 0 && 0 <= c.hi) covered++;
  }
  return { falsePositives: falsePositives / NULLS, coverage: covered / NULLS };
}

describe("clustered inference under clustered nulls (400 nulls per design)", () => {
  it("would call most A-vs-A comparisons significant if every (ask, seed) were independent", () => {
    // The design the harness used to analyse naively: 10 conversations × 20–150 asks × 5 seeds.
    const root = createRng(8999);
    let naive = 0;
    const trials = 100;
    for (let t = 0; t < trials; t++) {
      const data = clusteredSample(root.fork(`naive/${t}`), { ...NULL_DESIGN, clusters: 10, binary: false });
      if (compareToBaseline(data.baseline, data.ablation, { seed: 1 }).p < 0.05) naive++;
    }
    expect(naive / trials).toBeGreaterThan(0.3);
  });

  for (const binary of [false, true]) {
    const outcome = binary ? "0/1 outcomes" : "continuous scores";
    for (const clusters of [8, 10, 40]) {
      it(`holds its false-positive rate and coverage with ${clusters} clusters, ${outcome}`, () => {
        const { falsePositives, coverage } = calibrate(clusters, binary);
        expect(falsePositives).toBeGreaterThanOrEqual(0.02);
        expect(falsePositives).toBeLessThanOrEqual(0.08);
        if (clusters === 40) {
          expect(coverage).toBeGreaterThanOrEqual(0.92);
          expect(coverage).toBeLessThanOrEqual(0.97);
        } else {
          expect(coverage).toBeGreaterThanOrEqual(0.9);
        }
      });
    }
  }

  it("detects a shift of half the item sd with 40 clusters in at least 80% of trials", () => {
    const root = createRng(9100);
    let detected = 0;
    for (let t = 0; t < NULLS; t++) {
      const data = clusteredSample(root.fork(`shift/${t}`), { ...NULL_DESIGN, clusters: 40, binary: false, shift: 0.5 });
      const c = compareToBaseline(data.baseline, data.ablation, { seed: 1, items: data.items, clusters: data.clusters });
      if (c.p < 0.05 && c.meanDiff > 0) detected++;
    }
    expect(detected / NULLS).toBeGreaterThanOrEqual(0.8);
  });

  it("reports a minimum detectable effect that a true effect of that size reaches about 80% of the time", () => {
    // The MDE is computed from one data set; shifting fresh data sets of the same design by it
    // should give about the promised power (loosely: the MDE is itself estimated).
    const design = { ...NULL_DESIGN, clusters: 10, binary: false } as const;
    const first = clusteredSample(createRng(9200), design);
    const { mde } = compareToBaseline(first.baseline, first.ablation, {
      seed: 1,
      items: first.items,
      clusters: first.clusters,
    }) as ClusteredComparison;
    const root = createRng(9201);
    let detected = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const data = clusteredSample(root.fork(`mde/${t}`), { ...design, shift: mde });
      const c = compareToBaseline(data.baseline, data.ablation, { seed: 1, items: data.items, clusters: data.clusters });
      if (c.p < 0.05 && c.meanDiff > 0) detected++;
    }
    expect(detected / trials).toBeGreaterThan(0.55);
    expect(detected / trials).toBeLessThan(0.98);
  });
});

describe("bootstrapMeanCI", () => {
  it("covers the true mean in 93–97% of repeated samples at the 95% level", () => {
    // 1500 samples of n = 100 from N(3, 2²). Percentile bootstrap intervals run slightly narrow
    // at small n (about 94.6% here at n = 100); the standard error of the observed share over
    // 1500 trials is about 0.6 points, so a correct implementation lands well inside the band.
    const root = createRng(2024);
    const trials = 1500;
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      const rng = root.fork(`coverage/${t}`);
      const { lo, hi } = bootstrapMeanCI(normals(rng, 100, 3, 2), { seed: rng.fork("bootstrap"), resamples: 1000 });
      if (lo <= 3 && 3 <= hi) covered++;
    }
    const share = covered / trials;
    expect(share).toBeGreaterThanOrEqual(0.93);
    expect(share).toBeLessThanOrEqual(0.97);
  });
});
