import { describe, expect, it } from "vitest";
import { isRankMetric, metricNames } from "../../../src/harness/metrics.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { holm, minimumDetectableEffect, tCritical } from "../../../src/harness/stats/index.js";
import {
  ALL_GROUP,
  comparePair,
  familyName,
  findRow,
  PER_COMPARISON,
  significanceFloor,
  summarise,
  type SummariseOptions,
} from "../../../src/harness/summary/summarise.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

// Fewer resamples than the defaults keep the suite fast; the smallest p (1/2001) still survives Holm.
const FAST: SummariseOptions = { seed: 11, bootstrapResamples: 400, testResamples: 2000 };

describe("summarise", () => {
  // Two scenarios are too few clusters to detect anything; these tests about the machinery
  // take the asks as independent, and those about clustering say so.
  const results = withCluster(syntheticResults(), "ask");
  const summary = summarise(results, FAST);

  it("gives deep-equal summaries for the same seed", () => {
    expect(summarise(withCluster(syntheticResults(), "ask"), FAST)).toEqual(summary);
  });

  it("computes clustered intervals without resampling, so the seed does not change them", () => {
    const other = summarise(results, { ...FAST, seed: 12 });
    expect(other.rows).toEqual(summary.rows);
  });

  it("keeps the seed-dependent bootstrap when every (ask, seed) is declared independent", () => {
    const none = withCluster(results, "none");
    const a = summarise(none, FAST);
    const b = summarise(none, { ...FAST, seed: 12 });
    expect(b.rows.map((r) => r.value.mean)).toEqual(a.rows.map((r) => r.value.mean));
    expect(b.rows.map((r) => [r.value.lo, r.value.hi])).not.toEqual(a.rows.map((r) => [r.value.lo, r.value.hi]));
    expect(findRow(a, "full", "mrr").value.nItems).toBe(findRow(a, "full", "mrr").value.n);
    expect(a.unit.label).toBe("(ask, seed) values taken as independent");
  });

  it("pairs by (scenario, ask, seed), not by the order of the trials", () => {
    const shuffled = structuredClone(results);
    shuffled.trials.reverse();
    for (const trial of shuffled.trials) trial.asks.reverse();
    expect(summarise(shuffled, FAST)).toEqual(summary);
  });

  it("lists metrics, ablations and groups in report order", () => {
    expect(summary.metrics).toEqual(metricNames(results.experiment.k));
    expect(summary.headline).toEqual(["recall_any@1", "coverage"]);
    expect(summary.ablations).toEqual(["full", "relevance-only", "no-decay", "no-touch"]);
    expect(summary.groups).toEqual([ALL_GROUP, "multi-hop", "single-hop", "temporal"]);
    expect(summary.rows).toHaveLength(summary.metrics.length * summary.ablations.length * summary.groups.length);
  });

  it("averages the seeds of each ask first and leaves out asks that require nothing", () => {
    const asks = results.experiment.scenarios.flatMap((s) => s.asks);
    const seeds = results.experiment.seeds.length;
    expect(findRow(summary, "full", "mrr").value).toMatchObject({ n: asks.length * seeds, nItems: asks.length, nClusters: asks.length });
    const requiring = asks.filter((a) => a.required.length > 0).length;
    expect(findRow(summary, "full", "coverage").value).toMatchObject({ n: requiring * seeds, nItems: requiring });
    expect(findRow(summary, "no-touch", "coverage").vsBaseline!.diff).toMatchObject({ n: requiring * seeds, nItems: requiring });
    expect(findRow(summary, "full", "coverage", "multi-hop").value.n).toBe(0);
    expect(findRow(summary, "full", "mrr", "temporal").value.nItems).toBe(3);
  });

  it("treats the scenarios as the independent units by default, and says so", () => {
    const clustered = summarise(syntheticResults(), FAST);
    expect(clustered.unit).toEqual({ cluster: "scenario", label: "asks (seeds averaged), clustered by scenario" });
    expect(findRow(clustered, "full", "mrr").value.nClusters).toBe(2);
    // Two clusters leave one degree of freedom: intervals at least as wide as over independent asks.
    const width = (s: typeof summary) => {
      const v = findRow(s, "no-touch", "mrr").vsBaseline!.diff;
      return v.hi - v.lo;
    };
    expect(width(clustered)).toBeGreaterThan(width(summary));
  });

  it("gives the baseline no comparison and every other ablation one", () => {
    for (const row of summary.rows) {
      if (row.ablation === "full") expect(row.vsBaseline).toBeUndefined();
      else expect(row.vsBaseline).toBeDefined();
    }
  });

  it("finds an A-vs-A copy of the baseline indistinguishable from it", () => {
    const summaryWithCopy = summarise(addAblation(results, "copy", "full"), FAST);
    for (const metric of summaryWithCopy.metrics) {
      for (const group of summaryWithCopy.groups) {
        const row = findRow(summaryWithCopy, "copy", metric, group);
        const c = row.vsBaseline!;
        expect(c.diff.mean).toBe(0);
        expect(c.p).toBe(1);
        expect(c.pHolm).toBe(1);
        expect(c.significant).toBe(false);
        expect(c.wins).toBe(0);
        expect(c.losses).toBe(0);
        expect(c.ties).toBe(c.diff.nItems);
        expect(row.value.mean).toBe(findRow(summaryWithCopy, "full", metric, group).value.mean);
      }
    }
  });

  it("gives identical values identical intervals and p-values, whatever the ablations are called", () => {
    const twins = summarise(addAblation(addAblation(results, "twin-a", "no-touch"), "twin-b", "no-touch"), FAST);
    for (const metric of twins.metrics) {
      const a = findRow(twins, "twin-a", metric);
      const b = findRow(twins, "twin-b", metric);
      expect(b.value).toEqual(a.value);
      expect({ ...b.vsBaseline, pHolm: 0 }).toEqual({ ...a.vsBaseline, pHolm: 0 });
      expect(b.vsBaseline!.diff).toEqual(findRow(twins, "no-touch", metric).vsBaseline!.diff);
    }
  });

  it("finds a planted improvement significant, with wins only", () => {
    const boosted = addAblation(results, "boosted", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) }));
    const s = summarise(boosted, FAST);
    const row = findRow(s, "boosted", "recall_any@1");
    const c = row.vsBaseline!;
    expect(c.diff.mean).toBeGreaterThan(0);
    expect(c.diff.lo).toBeGreaterThan(0);
    expect(c.significant).toBe(true);
    expect(c.losses).toBe(0);
    expect(c.wins).toBeGreaterThan(3);
    // Letters compare the ablations other than the baseline: it beats each of them.
    expect(row.letter).toBe("d");
    expect(row.beats).toEqual(["a", "b", "c"]);
    expect(findRow(s, "full", "recall_any@1").letter).toBe("");
  });

  it("finds the planted losses before correction (six of fifteen asks are too few to survive Holm)", () => {
    const c = findRow(summary, "no-touch", "recall_any@1").vsBaseline!;
    expect(c.p).toBeLessThan(0.05);
    expect(c.diff.hi).toBeLessThan(0);
    expect(c.losses).toBe(6);
    expect(findRow(summary, "no-touch", "mrr").vsBaseline!.diff.hi).toBeLessThan(0);
    expect(findRow(summary, "relevance-only", "mrr", "temporal").vsBaseline!.diff.mean).toBeLessThan(0);
  });

  it("counts a rise in a lower-is-better metric as a loss, per ask", () => {
    const leakage = findRow(summary, "no-decay", "leakage").vsBaseline!;
    expect(leakage.diff.mean).toBeGreaterThan(0);
    expect(leakage.wins).toBe(0);
    const leakingAsks = new Set(
      results.trials.filter((t) => t.ablation === "no-decay").flatMap((t) => t.asks.filter((a) => a.leaked.length > 0).map((a) => `${t.scenario}/${a.ask}`)),
    );
    expect(leakingAsks.size).toBeGreaterThan(0);
    expect(leakage.losses).toBe(leakingAsks.size);
  });

  it("puts each comparison in exactly one named family: per group, headline metrics and the others", () => {
    const families = new Map(summary.families.map((f) => [f.name, f.size]));
    const adjustments = new Map(summary.families.map((f) => [f.name, f.adjustment]));
    for (const group of summary.groups) {
      for (const headline of [true, false]) {
        const rows = summary.rows.filter(
          (r) => r.group === group && r.vsBaseline?.comparable && summary.headline.includes(r.metric) === headline,
        );
        const name = familyName(group, headline);
        expect(rows.every((r) => r.vsBaseline!.family === name)).toBe(true);
        expect(families.get(name)).toBe(rows.length);
        // Fifteen asks, each its own cluster: over all asks the t test decides some comparisons,
        // so Holm adjusts; a category's few asks are decided by the exact test, jointly.
        const exact = rows.every((r) => r.vsBaseline!.method === "exact-sign-flip");
        expect(adjustments.get(name)).toBe(exact ? "westfall-young" : "holm");
        expect(group === ALL_GROUP).toBe(!exact);
        const adjusted = exact ? rows.map((r) => r.vsBaseline!.pHolm) : holm(rows.map((r) => r.vsBaseline!.p));
        rows.forEach((r, i) => {
          expect(r.vsBaseline!.adjustment).toBe(adjustments.get(name));
          expect(r.vsBaseline!.pHolm).toBe(adjusted[i]);
          expect(r.vsBaseline!.pHolm).toBeGreaterThanOrEqual(r.vsBaseline!.p);
          expect(r.vsBaseline!.significant).toBe(adjusted[i] < 0.05);
        });
      }
    }
    expect(summary.families.reduce((n, f) => n + f.size, 0)).toBe(summary.rows.filter((r) => r.vsBaseline?.comparable).length);
  });

  it("does not compare rank metrics across a per-kind and a pooled layout, only block metrics", () => {
    const pooled = addAblation(results, "pooled", "full");
    pooled.experiment.ablations.find((a) => a.name === "pooled")!.policy!.mode = "pooled";
    const s = summarise(pooled, FAST);
    for (const metric of s.metrics) {
      const c = findRow(s, "pooled", metric).vsBaseline!;
      expect(c.comparable, metric).toBe(!isRankMetric(metric));
      if (!c.comparable) expect([c.p, c.significant]).toEqual([1, false]);
    }
  });

  it("tests each designed failure with the seed as the unit, in a family of its own", () => {
    const [claim] = summary.designedFailures;
    expect(claim).toMatchObject({ scenario: "touch-keeps-fact-alive", ablation: "no-touch", metric: "recall_any@1" });
    expect(claim.diff.nClusters).toBe(results.experiment.seeds.length);
    expect(claim.diff.nItems).toBe(results.experiment.seeds.length);
    expect(claim.wins + claim.ties + claim.losses).toBe(results.experiment.seeds.length);
    expect(claim.pHolm).toBe(claim.p);
  });

  it("gives each comparison one verdict: significant, per comparison only, not detected, identical or not comparable", () => {
    const s = summarise(addAblation(addAblation(results, "copy", "full"), "boosted", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) })), FAST);
    expect(findRow(s, "boosted", "recall_any@1").vsBaseline!.verdict).toBe("significant");
    expect(findRow(s, "copy", "recall_any@1").vsBaseline!.verdict).toBe("identical");
    // The planted losses: the interval excludes 0, but not after Holm over the family.
    const lost = findRow(s, "no-touch", "recall_any@1").vsBaseline!;
    expect([lost.verdict, lost.significant]).toEqual(["per-comparison", false]);
    for (const { vsBaseline: c } of s.rows) {
      if (c === undefined) continue;
      const excludesZero = c.diff.lo > 0 || c.diff.hi < 0;
      if (c.verdict === "significant") expect(c.significant).toBe(true);
      if (c.verdict === "per-comparison") expect([c.significant, excludesZero]).toEqual([false, true]);
      if (c.verdict === "not-detected") expect([c.significant, excludesZero]).toEqual([false, false]);
    }
    const pooled = addAblation(results, "pooled", "full");
    pooled.experiment.ablations.find((a) => a.name === "pooled")!.policy!.mode = "pooled";
    expect(findRow(summarise(pooled, FAST), "pooled", "mrr").vsBaseline!.verdict).toBe("not-comparable");
  });

  it("adjusts a family the exact test decided by Westfall–Young, which Holm's first step would leave with nothing", () => {
    // One scenario's nine asks, each its own cluster: the smallest exact p is 2/512, and Holm over
    // the 32 "other metrics" comparisons needs 0.05/32 ≈ 0.0016 at its first step.
    const nine = structuredClone(results);
    nine.trials = nine.trials.filter((t) => t.scenario === "benchmark-conversation");
    nine.experiment.scenarios = nine.experiment.scenarios.filter((s) => s.name === "benchmark-conversation");
    const s = summarise(addAblation(nine, "boosted", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) })), FAST);
    const family = s.families.find((f) => f.name === familyName(ALL_GROUP, false))!;
    expect(family).toEqual({ name: familyName(ALL_GROUP, false), size: 32, adjustment: "westfall-young" });
    const members = s.rows.filter((r) => r.vsBaseline?.family === family.name && r.vsBaseline.comparable).map((r) => r.vsBaseline!);
    expect(Math.min(...holm(members.map((c) => c.p)))).toBeGreaterThan(0.05);
    // Better on all nine asks: no sign vector but all-plus and all-minus reaches its statistic.
    const mrr = findRow(s, "boosted", "mrr").vsBaseline!;
    expect(mrr).toMatchObject({ wins: 9, losses: 0, smallestP: 2 / 512, pHolm: 2 / 512, adjustment: "westfall-young", verdict: "significant" });
    // Under Westfall–Young the floor is α, and the MDE (conservatively at α/32) exists.
    expect([mrr.mdeLevel, significanceFloor(mrr)]).toEqual([0.05 / 32, 0.05]);
    expect(mrr.mde).toBeGreaterThan(0);
  });

  it("computes each MDE at α over its family's size, and none where nothing varies", () => {
    const sizes = new Map(summary.families.map((f) => [f.name, f.size]));
    let checked = 0;
    for (const { vsBaseline: c } of summary.rows) {
      if (c === undefined || !c.comparable) continue;
      expect(c.mdeLevel).toBe(0.05 / sizes.get(c.family)!);
      if (c.verdict === "identical") expect(c.mde).toBeUndefined();
      // Fifteen independent asks: the t test decides, and where its interval is not clipped to
      // [−1, 1] the se is its half-width over t.
      if (c.method === "cr2-t" && c.mde !== undefined && c.diff.lo > -1 && c.diff.hi < 1) {
        const se = (c.diff.hi - c.diff.lo) / 2 / tCritical(0.95, c.diff.df!);
        expect(c.mde).toBeCloseTo(minimumDetectableEffect(se, c.diff.df!, { alpha: c.mdeLevel }), 9);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("decides with the exact sign-flip test over 12 clusters or fewer, and states the Bell–McCaffrey df", () => {
    const clustered = summarise(syntheticResults(), FAST);
    const c = findRow(clustered, "no-touch", "mrr").vsBaseline!;
    expect(c).toMatchObject({ method: "exact-sign-flip", smallestP: 0.5 });
    // Two scenarios: the smallest p, 2/4, is above any level, so nothing is detectable and there is no MDE.
    expect(c.mde).toBeUndefined();
    expect(findRow(clustered, "full", "mrr").value.df).toBeCloseTo(1, 9);
  });

  it("keeps an interval of a mean at 1 over few asks away from the single point 1", () => {
    const s = summarise(addAblation(results, "boosted", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) })), FAST);
    const { mean, lo, hi } = findRow(s, "boosted", "recall_any@1").value;
    expect([mean, hi]).toEqual([1, 1]);
    expect(lo).toBeLessThan(0.9);
  });

  it("refuses results with a missing trial rather than pairing around the hole", () => {
    const broken = structuredClone(results);
    broken.trials = broken.trials.filter((t) => !(t.ablation === "no-touch" && t.seed === 2 && t.scenario === "touch-keeps-fact-alive"));
    expect(() => summarise(broken, FAST)).toThrow(/under ablation "no-touch", seed 2/);
  });
});

function withCluster(results: ExperimentResults, cluster: ExperimentResults["experiment"]["cluster"]): ExperimentResults {
  const copy = structuredClone(results);
  copy.experiment.cluster = cluster;
  return copy;
}

describe("comparePair", () => {
  const results = syntheticResults();
  const summary = summarise(results, { seed: 3 });

  it("compares two policies exactly as a comparison with the baseline is made: paired, clustered, the same figures", () => {
    for (const metric of ["recall_any@1", "coverage", "leakage"]) {
      const vs = findRow(summary, "no-touch", metric).vsBaseline!;
      const pair = comparePair(results, "full", "no-touch", metric, 3);
      expect(pair.diff).toEqual(vs.diff);
      expect(pair.p).toBe(vs.p);
      expect(pair.mde).toBe(vs.mde);
      expect([pair.wins, pair.ties, pair.losses]).toEqual([vs.wins, vs.ties, vs.losses]);
    }
  });

  it("belongs to no Holm family: its adjusted p is its own, and so is its verdict", () => {
    const pair = comparePair(results, "relevance-only", "no-touch", "mrr", 3);
    expect(pair.family).toBe(PER_COMPARISON);
    expect(pair.pHolm).toBe(pair.p);
    expect(pair.significant).toBe(pair.p < 0.05);
  });

  it("does not compare rank metrics across section layouts", () => {
    const pooled = addAblation(results, "pooled", "full");
    pooled.experiment.ablations.find((a) => a.name === "pooled")!.policy!.mode = "pooled";
    expect(comparePair(pooled, "no-touch", "pooled", "mrr", 3).comparable).toBe(false);
    expect(comparePair(pooled, "no-touch", "pooled", "coverage", 3).comparable).toBe(true);
  });
});
