import { describe, expect, it } from "vitest";
import {
  BEYOND_NEIGHBOURS,
  type GoldSide,
  NOT_A_CANDIDATE,
  NO_SIGNAL_MOVED,
  medianRank,
  movedBy,
  rankChanges,
} from "../../../src/harness/summary/rank-changes.js";
import type { AskResult, Trial } from "../../../src/harness/results/types.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

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
  const weights: [number, number, number] = [1, 1, 1];
  const section = "episodic";

  it("names the signal that moved the margin to the memory that overtook the gold one (hand-computed)", () => {
    // Two memories in one section. Under the baseline (decay on) the gold memory g leads:
    //   g: rel 0.5, rec 0.9, imp 0.50 → 1.90    o: rel 0.5, rec 0.8, imp 0.55 → 1.85
    // Without decay both recencies are 1, and o leads:
    //   g: 0.5 + 1 + 0.50 = 2.00                 o: 0.5 + 1 + 0.55 = 2.05
    // Margins o − g by signal: baseline (0, −0.10, +0.05), ablation (0, 0, +0.05). Recency moved
    // the margin by +0.10 in o's favour. (The gold memory's own recency rose, by 0.10: a reading
    // of its own signals alone would name a change in its favour.)
    const base: GoldSide = {
      rank: 1,
      detail: { id: "g", section, rel: 0.5, rec: 0.9, imp: 0.5, total: 1.9, weights, neighbours: [{ id: "o", rank: 2, rel: 0.5, rec: 0.8, imp: 0.55, total: 1.85 }] },
    };
    const variant: GoldSide = {
      rank: 2,
      detail: { id: "g", section, rel: 0.5, rec: 1, imp: 0.5, total: 2, weights, neighbours: [{ id: "o", rank: 1, rel: 0.5, rec: 1, imp: 0.55, total: 2.05 }] },
    };
    expect(movedBy(base, variant)).toBe("rec +0.10 (o overtook it)");
    // The other way round, the gold memory rises over o through the same signal.
    expect(movedBy(variant, base)).toBe("rec +0.10 (it overtook o)");
  });

  it("weighs each signal with the weights its section used", () => {
    // Relevance-only zeroes recency: the rival's lost recency deficit is what moved it up.
    const base: GoldSide = {
      rank: 1,
      detail: { id: "g", section, rel: 0.4, rec: 1, imp: 0.9, total: 2.3, weights, neighbours: [{ id: "o", rank: 2, rel: 0.6, rec: 0.2, imp: 0.5, total: 1.3 }] },
    };
    const variant: GoldSide = {
      rank: 2,
      detail: { id: "g", section, rel: 0.4, rec: 1, imp: 0.9, total: 0.4, weights: [1, 0, 0], neighbours: [{ id: "o", rank: 1, rel: 0.6, rec: 0.2, imp: 0.5, total: 0.6 }] },
    };
    // Margin changes: rel 0, rec 0 − (0.2 − 1) = +0.8, imp 0 − (0.5 − 0.9) = +0.4.
    expect(movedBy(base, variant)).toBe("rec +0.80 (o overtook it)");
  });

  it("names the rival that gained most and counts the others", () => {
    const neighbours = (ranks: [number, number], rec: number) => [
      { id: "o1", rank: ranks[0], rel: 0.5, rec, imp: 0.5, total: 0 },
      { id: "o2", rank: ranks[1], rel: 0.5, rec: rec / 2, imp: 0.5, total: 0 },
    ];
    const base: GoldSide = { rank: 1, detail: { id: "g", section, rel: 0.5, rec: 0.9, imp: 0.5, total: 0, weights, neighbours: neighbours([2, 3], 0.4) } };
    const variant: GoldSide = { rank: 3, detail: { id: "g", section, rel: 0.5, rec: 0.9, imp: 0.5, total: 0, weights, neighbours: neighbours([1, 2], 1) } };
    expect(movedBy(base, variant)).toBe("rec +0.60 (o1 and 1 more overtook it)");
  });

  it("says when the memory was not a candidate on either side", () => {
    const present: GoldSide = { rank: 1, detail: { id: "g", section, rel: 1, rec: 1, imp: 1, total: 3, weights } };
    expect(movedBy(present, { rank: null, detail: null })).toBe(NOT_A_CANDIDATE);
    expect(movedBy({ rank: null, detail: { ...present.detail!, section: null } }, present)).toBe(NOT_A_CANDIDATE);
  });

  it("says when no recorded neighbour changed places with it", () => {
    const alone: GoldSide = { rank: 1, detail: { id: "g", section, rel: 1, rec: 1, imp: 1, total: 3, weights, neighbours: [] } };
    expect(movedBy(alone, { ...alone, rank: 4 })).toBe(BEYOND_NEIGHBOURS);
  });

  it("says when the margins to the rivals did not move", () => {
    const detail = { id: "g", section, rel: 0.5, rec: 0.5, imp: 0.5, total: 1.5, weights };
    const base: GoldSide = { rank: 1, detail: { ...detail, neighbours: [{ id: "o", rank: 2, rel: 0.5, rec: 0.5, imp: 0.5, total: 1.5 }] } };
    const variant: GoldSide = { rank: 2, detail: { ...detail, neighbours: [{ id: "o", rank: 1, rel: 0.5, rec: 0.5, imp: 0.5, total: 1.5 }] } };
    expect(movedBy(base, variant)).toBe(NO_SIGNAL_MOVED);
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
      expect(c.movedBy).toMatch(new RegExp(`^rec \\+0\\.\\d\\d \\(rival-${c.gold} overtook it\\)$`));
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
      const gold = a.detail.gold.map((g) => ({ ...g, imp: g.imp! - 0.25, total: g.total! - 0.25 }));
      return { ...a, ranks: a.ranks.map(() => 6), detail: { ...a.detail, gold } };
    };
    const withVariants = addAblation(addAblation(flat, "one-seed-worse", "full", worse([1])), "two-seeds-worse", "full", worse([1, 2]));
    const found = rankChanges(withVariants);

    // One bad seed out of three does not move the median.
    expect(found.filter((c) => c.ablation === "one-seed-worse")).toEqual([]);
    const moved = found.filter((c) => c.ablation === "two-seeds-worse");
    expect(moved.map((c) => c.gold)).toEqual(results.experiment.scenarios[1].asks.flatMap((a) => a.expect));
    for (const c of moved) {
      expect(c).toMatchObject({ baselineRank: 1, ablationRank: 6, movedBy: `imp +0.25 (rival-${c.gold} overtook it)` });
    }
  });
});
