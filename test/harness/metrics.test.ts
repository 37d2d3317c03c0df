import { describe, expect, it } from "vitest";
import {
  deepestRankRead,
  higherIsBetter,
  isRankMetric,
  isUnitBounded,
  type MetricName,
  metricNames,
  metricReader,
  metricValue,
  ndcg,
  recallAll,
  recallAny,
  reciprocalRank,
} from "../../src/harness/metrics.js";
import type { AskResult } from "../../src/harness/results/types.js";

const ask = (fields: Partial<AskResult>): AskResult => ({ ask: "q", ranks: [], coverage: null, leaked: [], tokens: 0, ...fields });

describe("recall@k", () => {
  it("any: 1 when at least one gold memory is in the top k", () => {
    expect(recallAny([2, 7], 1)).toBe(0);
    expect(recallAny([2, 7], 2)).toBe(1);
    expect(recallAny([9, 3], 3)).toBe(1);
  });

  it("all: 1 only when every gold memory is in the top k", () => {
    expect(recallAll([1, 3], 3)).toBe(1);
    expect(recallAll([1, 4], 3)).toBe(0);
    expect(recallAll([1, 4], 4)).toBe(1);
  });

  it("counts a gold memory that was never ranked (null) as missed", () => {
    expect(recallAny([null], 5)).toBe(0);
    expect(recallAny([null, 2], 5)).toBe(1);
    expect(recallAll([1, null], 100)).toBe(0);
  });
});

describe("reciprocal rank", () => {
  it("is 1 over the best gold rank", () => {
    expect(reciprocalRank([1])).toBe(1);
    expect(reciprocalRank([3, 2])).toBe(0.5);
    expect(reciprocalRank([null, 4])).toBe(0.25);
  });

  it("is 0 when no gold memory was ranked", () => {
    expect(reciprocalRank([null, null])).toBe(0);
  });
});

describe("nDCG@k (binary gain)", () => {
  it("matches hand-computed values", () => {
    // One gold at rank 2: (1 / log2 3) / (1 / log2 2) = 0.63093.
    expect(ndcg([2], 3)).toBeCloseTo(0.63093, 5);
    // Golds at 1 and 3: (1 + 1/log2 4) / (1 + 1/log2 3) = 1.5 / 1.63093 = 0.91972.
    expect(ndcg([1, 3], 3)).toBeCloseTo(0.91972, 5);
    // Both golds at the top two ranks, in either order, is ideal.
    expect(ndcg([2, 1], 5)).toBe(1);
    // The ideal is cut at k: three golds, k = 2, golds at 1 and 2 is ideal.
    expect(ndcg([1, 2, 9], 2)).toBe(1);
  });

  it("ignores gold memories below k and counts unranked ones as missed", () => {
    expect(ndcg([4], 3)).toBe(0);
    expect(ndcg([null, 1], 3)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 10);
  });

  it("never exceeds 1 when per-kind sections give two gold memories the same rank", () => {
    // Both rank 1 in their own sections: read as positions 1 and 2 of one list, which is ideal.
    expect(ndcg([1, 1], 5)).toBe(1);
    // Ranks 1, 1, 2 become positions 1, 2, 3: ideal again.
    expect(ndcg([1, 2, 1], 5)).toBe(1);
    // Ranks 2 and 2 become positions 2 and 3: (1/log2 3 + 1/log2 4) / (1 + 1/log2 3).
    expect(ndcg([2, 2], 5)).toBeCloseTo((1 / Math.log2(3) + 0.5) / (1 + 1 / Math.log2(3)), 10);
    // With k = 1 only the first of two rank-1 golds counts, and the ideal holds one.
    expect(ndcg([1, 1], 1)).toBe(1);
  });
});

describe("an ask with no gold memories", () => {
  it("scores 0 on every rank metric rather than being dropped", () => {
    expect(recallAny([], 1)).toBe(0);
    expect(recallAll([], 1)).toBe(0);
    expect(reciprocalRank([])).toBe(0);
    expect(ndcg([], 3)).toBe(0);
    for (const metric of metricNames([1, 3])) {
      if (metric === "coverage") continue;
      expect(metricValue(ask({ ranks: [] }), metric), metric).toBe(0);
    }
  });
});

describe("metricValue", () => {
  const result = ask({ ranks: [2, null], coverage: 0.5, leaked: ["old"], tokens: 41 });

  it("reads each named metric from one ask's result", () => {
    expect(metricValue(result, "recall_any@1")).toBe(0);
    expect(metricValue(result, "recall_any@2")).toBe(1);
    expect(metricValue(result, "recall_all@5")).toBe(0);
    expect(metricValue(result, "mrr")).toBe(0.5);
    expect(metricValue(result, "ndcg@2")).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 10);
    expect(metricValue(result, "coverage")).toBe(0.5);
    expect(metricValue(result, "leakage")).toBe(1);
    expect(metricValue(result, "tokens")).toBe(41);
  });

  it("gives null coverage when nothing is required, and no leakage when nothing stale reached the block", () => {
    expect(metricValue(ask({ coverage: null }), "coverage")).toBeNull();
    expect(metricValue(ask({ leaked: [] }), "leakage")).toBe(0);
  });

  it("rejects a metric it does not know", () => {
    expect(() => metricValue(result, "precision@3")).toThrow(/unknown metric "precision@3"/);
    expect(() => metricReader("precision@3")).toThrow(/unknown metric "precision@3"/);
  });

  it("reads the same metric from many asks through a reader that parses its name once", () => {
    const asks = [result, ask({ ranks: [1, 3], coverage: null, leaked: [], tokens: 7 }), ask({ ranks: [] })];
    expect(asks.map(metricReader("recall_any@2"))).toEqual([1, 1, 0]);
    expect(asks.map(metricReader("recall_all@3"))).toEqual([0, 1, 0]);
    expect(asks.map(metricReader("mrr"))).toEqual([0.5, 1, 0]);
    expect(asks.map(metricReader("coverage"))).toEqual([0.5, null, null]);
    expect(asks.map(metricReader("leakage"))).toEqual([1, 0, 0]);
    expect(asks.map(metricReader("tokens"))).toEqual([41, 7, 0]);
  });
});

describe("metricNames", () => {
  it("lists the metrics for the experiment's k values in report order", () => {
    expect(metricNames([1, 5])).toEqual([
      "recall_any@1", "recall_any@5", "recall_all@1", "recall_all@5", "mrr", "ndcg@1", "ndcg@5", "coverage", "leakage", "tokens",
    ]);
  });

  it("marks leakage and tokens as lower-is-better and the rest as higher-is-better", () => {
    expect(metricNames([3]).filter((m) => !higherIsBetter(m))).toEqual(["leakage", "tokens"]);
  });

  it("marks every metric but tokens as bounded in [0, 1]", () => {
    expect(metricNames([3]).filter((m) => !isUnitBounded(m))).toEqual(["tokens"]);
  });

  it("marks the metrics that read ranks, and only those", () => {
    expect(metricNames([1, 5]).filter(isRankMetric)).toEqual([
      "recall_any@1", "recall_any@5", "recall_all@1", "recall_all@5", "mrr", "ndcg@1", "ndcg@5",
    ]);
    // Whole names only: a name that merely contains a rank metric's does not read ranks.
    for (const name of ["my_recall_any@5", "mrr_tokens", "not_mrr"]) expect(isRankMetric(name as MetricName)).toBe(false);
  });

  it("knows how deep each metric reads ranks", () => {
    expect(["recall_any@5", "recall_all@1", "ndcg@10"].map(deepestRankRead)).toEqual([5, 1, 10]);
    // mrr reads a rank however deep; the others read none.
    for (const name of ["mrr", "coverage", "leakage", "tokens", "my_recall_any@5", "ndcg@5x"]) expect(deepestRankRead(name)).toBeUndefined();
  });
});
