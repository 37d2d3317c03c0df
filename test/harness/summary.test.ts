import { describe, expect, it } from "vitest";
import { metricNames } from "../../src/harness/metrics.js";
import { holm } from "../../src/harness/stats/index.js";
import { ALL_GROUP, findRow, summarise, type SummariseOptions } from "../../src/harness/summary.js";
import { addAblation, syntheticResults } from "../fixtures/synthetic-results.js";

// Fewer resamples than the defaults keep the suite fast; the smallest p (1/2001) still survives Holm.
const FAST: SummariseOptions = { seed: 11, bootstrapResamples: 400, testResamples: 2000 };

describe("summarise", () => {
  const results = syntheticResults();
  const summary = summarise(results, FAST);

  it("gives deep-equal summaries for the same seed", () => {
    expect(summarise(syntheticResults(), FAST)).toEqual(summary);
  });

  it("changes the intervals, not the means, with another seed", () => {
    const other = summarise(results, { ...FAST, seed: 12 });
    const means = (s: typeof summary) => s.rows.map((r) => r.value.mean);
    expect(means(other)).toEqual(means(summary));
    expect(other.rows.map((r) => [r.value.lo, r.value.hi])).not.toEqual(summary.rows.map((r) => [r.value.lo, r.value.hi]));
  });

  it("pairs by (scenario, ask, seed), not by the order of the trials", () => {
    const shuffled = structuredClone(results);
    shuffled.trials.reverse();
    for (const trial of shuffled.trials) trial.asks.reverse();
    expect(summarise(shuffled, FAST)).toEqual(summary);
  });

  it("lists metrics, ablations and groups in report order", () => {
    expect(summary.metrics).toEqual(metricNames(results.experiment.k));
    expect(summary.ablations).toEqual(["full", "relevance-only", "no-decay", "no-touch"]);
    expect(summary.groups).toEqual([ALL_GROUP, "multi-hop", "single-hop", "temporal"]);
    expect(summary.rows).toHaveLength(summary.metrics.length * summary.ablations.length * summary.groups.length);
  });

  it("takes each mean over every (scenario, ask, seed) and leaves out asks that require nothing", () => {
    const asks = results.experiment.scenarios.flatMap((s) => s.asks);
    const seeds = results.experiment.seeds.length;
    expect(findRow(summary, "full", "mrr").value.n).toBe(asks.length * seeds);
    const requiring = asks.filter((a) => a.required.length > 0).length;
    expect(findRow(summary, "full", "coverage").value.n).toBe(requiring * seeds);
    expect(findRow(summary, "no-touch", "coverage").vsBaseline!.diff.n).toBe(requiring * seeds);
    expect(findRow(summary, "full", "coverage", "multi-hop").value.n).toBe(0);
    expect(findRow(summary, "full", "mrr", "temporal").value.n).toBe(3 * seeds);
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
        expect(c.ties).toBe(c.diff.n);
        expect(row.value.mean).toBe(findRow(summaryWithCopy, "full", metric, group).value.mean);
        // Neither may be lettered as beating the other.
        const copyLetter = row.letter;
        const full = findRow(summaryWithCopy, "full", metric, group);
        expect(row.beats).not.toContain(full.letter);
        expect(full.beats).not.toContain(copyLetter);
      }
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
    expect(c.wins).toBeGreaterThan(10);
    // It beats every other ablation on that metric, since each ranks some gold memory below 1.
    expect(row.beats).toEqual(["a", "b", "c", "d"]);
    expect(row.letter).toBe("e");
  });

  it("finds the planted losses significant", () => {
    expect(findRow(summary, "no-touch", "mrr").vsBaseline!.significant).toBe(true);
    expect(findRow(summary, "no-touch", "mrr").vsBaseline!.diff.hi).toBeLessThan(0);
    expect(findRow(summary, "relevance-only", "mrr", "temporal").vsBaseline!.diff.mean).toBeLessThan(0);
    expect(findRow(summary, "full", "mrr").beats).toContain(findRow(summary, "no-touch", "mrr").letter);
  });

  it("counts a rise in a lower-is-better metric as a loss", () => {
    const leakage = findRow(summary, "no-decay", "leakage").vsBaseline!;
    expect(leakage.diff.mean).toBeGreaterThan(0);
    expect(leakage.wins).toBe(0);
    const leakingPairs = results.trials
      .filter((t) => t.ablation === "no-decay")
      .flatMap((t) => t.asks)
      .filter((a) => a.leaked.length > 0).length;
    expect(leakingPairs).toBeGreaterThan(0);
    expect(leakage.losses).toBe(leakingPairs);
  });

  it("Holm-corrects each group's (ablation, metric) comparisons as one family", () => {
    for (const group of summary.groups) {
      const rows = summary.rows.filter((r) => r.group === group && r.vsBaseline !== undefined);
      expect(rows).toHaveLength(summary.metrics.length * (summary.ablations.length - 1));
      const adjusted = holm(rows.map((r) => r.vsBaseline!.p));
      rows.forEach((r, i) => {
        expect(r.vsBaseline!.pHolm).toBe(adjusted[i]);
        expect(r.vsBaseline!.significant).toBe(adjusted[i] < 0.05);
      });
    }
  });

  it("gives letters a, b, c … in ablation order", () => {
    for (const row of summary.rows) {
      expect(row.letter).toBe("abcd"[summary.ablations.indexOf(row.ablation)]);
    }
  });

  it("restricts to one scenario's asks on request", () => {
    const touch = summarise(results, { ...FAST, scenario: "touch-keeps-fact-alive" });
    expect(touch.groups).toEqual([ALL_GROUP]);
    expect(findRow(touch, "full", "mrr").value.n).toBe(6 * 3);
    expect(touch.rankChanges.every((c) => c.scenario === "touch-keeps-fact-alive")).toBe(true);
    expect(findRow(touch, "no-touch", "recall_any@1").vsBaseline!.diff.mean).toBeLessThan(
      findRow(summary, "no-touch", "recall_any@1").vsBaseline!.diff.mean,
    );
    expect(() => summarise(results, { ...FAST, scenario: "nope" })).toThrow(/no scenario "nope"/);
  });

  it("refuses results with a missing trial rather than pairing around the hole", () => {
    const broken = structuredClone(results);
    broken.trials = broken.trials.filter((t) => !(t.ablation === "no-touch" && t.seed === 2 && t.scenario === "touch-keeps-fact-alive"));
    expect(() => summarise(broken, FAST)).toThrow(/under ablation "no-touch", seed 2/);
  });
});
