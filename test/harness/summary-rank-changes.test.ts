import { describe, expect, it } from "vitest";
import {
  NOT_A_CANDIDATE,
  NO_SIGNAL_MOVED,
  medianRank,
  movedBy,
  rankChanges,
} from "../../src/harness/summary/rank-changes.js";
import type { AskResult, Trial } from "../../src/harness/results/types.js";
import { addAblation, syntheticResults } from "../fixtures/synthetic-results.js";

describe("medianRank", () => {
  it("counts not ranked as worse than any rank", () => {
    expect(medianRank([3, null, 1])).toBe(3);
    expect(medianRank([null, null, 2])).toBeNull();
    expect(medianRank([null, 1, 1])).toBe(1);
  });

  it("takes the lower median of an even count, so the rank was observed", () => {
    expect(medianRank([4, 1])).toBe(1);
    expect(medianRank([2, 5, 3, 9])).toBe(3);
    expect(medianRank([])).toBeNull();
  });
});

describe("movedBy", () => {
  const base = { rel: 0.5, rec: 0.9, imp: 0.3, total: 1.7, weights: [1, 1, 1] as [number, number, number] };

  it("names the signal whose contribution moved most, signed ablation − baseline", () => {
    expect(movedBy(base, { ...base, rec: 0.48, total: 1.28 })).toBe("rec \u22120.42");
    expect(movedBy(base, { ...base, rec: 0.8, imp: 0.5 })).toBe("imp +0.20");
  });

  it("weighs each signal: a zero weight removes its contribution even when the signal is unchanged", () => {
    expect(movedBy(base, { ...base, total: 0.5, weights: [1, 0, 0] })).toBe("rec \u22120.90");
  });

  it("says when the memory was not a candidate on either side", () => {
    expect(movedBy(base, null)).toBe(NOT_A_CANDIDATE);
    expect(movedBy(null, base)).toBe(NOT_A_CANDIDATE);
  });

  it("says when no signal of the memory itself moved", () => {
    expect(movedBy(base, { ...base })).toBe(NO_SIGNAL_MOVED);
  });
});

describe("rankChanges", () => {
  const results = syntheticResults();
  const changes = rankChanges(results);

  it("only covers asks with recorded detail", () => {
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.scenario === "touch-keeps-fact-alive")).toBe(true);
  });

  it("finds every gold memory that no-touch pushes down, moved by recency", () => {
    const noTouch = changes.filter((c) => c.ablation === "no-touch");
    const golds = results.experiment.scenarios[1].asks.flatMap((a) => a.expect);
    expect(noTouch.map((c) => c.gold)).toEqual(golds);
    for (const c of noTouch) {
      expect(c.ablationRank!).toBeGreaterThan(c.baselineRank!);
      expect(c.movedBy).toMatch(/^rec \u22120\.\d\d$/);
      expect(c.variant!.rec).toBeLessThan(c.baseline!.rec);
    }
  });

  it("reports a gold memory that stopped being a candidate", () => {
    const dropped = changes.find((c) => c.ablation === "relevance-only" && c.gold === "fact-3b");
    expect(dropped).toMatchObject({ ask: "t3", ablationRank: null, movedBy: NOT_A_CANDIDATE, variant: null });
    expect(dropped!.baseline).not.toBeNull();
  });

  it("reports no change for an ablation that ranks like the baseline", () => {
    expect(changes.filter((c) => c.ablation === "no-decay")).toEqual([]);
    expect(rankChanges(addAblation(results, "copy", "full")).filter((c) => c.ablation === "copy")).toEqual([]);
  });

  it("compares medians over seeds, with breakdowns from the first seed", () => {
    // A baseline that ranks every gold memory first on every seed, so the medians are known.
    const flat = structuredClone(results);
    for (const trial of flat.trials) {
      if (trial.ablation === "full") for (const a of trial.asks) a.ranks = a.ranks.map(() => 1);
    }
    const worse = (seeds: number[]) => (a: AskResult, trial: Trial): AskResult => {
      if (!seeds.includes(trial.seed) || a.detail === undefined) return a;
      const gold = a.detail.gold.map((g) => ({ ...g, imp: g.imp - 0.25, total: g.total - 0.25 }));
      return { ...a, ranks: a.ranks.map(() => 6), detail: { ...a.detail, gold } };
    };
    const withVariants = addAblation(addAblation(flat, "one-seed-worse", "full", worse([1])), "two-seeds-worse", "full", worse([1, 2]));
    const found = rankChanges(withVariants);

    // One bad seed out of three does not move the median.
    expect(found.filter((c) => c.ablation === "one-seed-worse")).toEqual([]);
    const moved = found.filter((c) => c.ablation === "two-seeds-worse");
    expect(moved.map((c) => c.gold)).toEqual(results.experiment.scenarios[1].asks.flatMap((a) => a.expect));
    for (const c of moved) {
      expect(c).toMatchObject({ baselineRank: 1, ablationRank: 6, movedBy: "imp \u22120.25" });
    }
  });
});
