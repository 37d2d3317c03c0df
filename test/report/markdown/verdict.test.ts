import { describe, expect, it } from "vitest";
import type { Comparison } from "../../../src/harness/summary/types.js";
import { comparisonVerdict, perComparisonOnly, type Verdict, verdictCell } from "../../../src/report/markdown/verdict.js";

function comparison(over: Partial<Comparison> & { lo: number; hi: number }): Comparison {
  const { lo, hi, ...rest } = over;
  return {
    diff: { mean: (lo + hi) / 2, lo, hi, n: 30, nItems: 10, nClusters: 10 },
    p: 0.01,
    pHolm: 0.03,
    significant: true,
    family: "all asks, headline metrics",
    comparable: true,
    mde: 0.1,
    wins: 7,
    ties: 1,
    losses: 2,
    ...rest,
  };
}

describe("comparisonVerdict", () => {
  it("calls a difference significant only when it survives Holm and its interval excludes 0", () => {
    expect(comparisonVerdict(comparison({ lo: 0.05, hi: 0.2 }), "recall_any@5")).toBe("significant");
    expect(comparisonVerdict(comparison({ lo: -0.2, hi: -0.05 }), "recall_any@5")).toBe("significant");
  });

  it("says 'per comparison only' when the interval excludes 0 but Holm's adjustment does not let it through", () => {
    expect(comparisonVerdict(comparison({ lo: -0.583, hi: -0.067, significant: false, pHolm: 1 }), "recall_any@1")).toBe("per comparison only");
  });

  it("never lets a mark stand on an interval that includes 0 as shown, whatever the test said", () => {
    // Significant by its test, but [0.000, +0.219] as the reader sees it.
    expect(comparisonVerdict(comparison({ lo: 0.0004, hi: 0.219 }), "leakage")).toBe("not detected");
    expect(comparisonVerdict(comparison({ lo: -0.3, hi: 0.1, significant: false, pHolm: 0.4 }), "coverage")).toBe("not detected");
    // Tokens are shown with one decimal: +0.04 is 0.0.
    expect(comparisonVerdict(comparison({ lo: 0.04, hi: 2 }), "tokens")).toBe("not detected");
    expect(comparisonVerdict(comparison({ lo: 0.06, hi: 2 }), "tokens")).toBe("significant");
  });

  it("tells identical and incomparable comparisons apart from undetected ones", () => {
    expect(comparisonVerdict(comparison({ lo: 0, hi: 0, wins: 0, losses: 0, ties: 10 }), "mrr")).toBe("identical");
    expect(comparisonVerdict(comparison({ lo: 0.1, hi: 0.3, comparable: false }), "mrr")).toBe("not comparable");
  });
});

describe("verdictCell", () => {
  it("is never blank, and marks only a significant difference", () => {
    const verdicts: Verdict[] = ["significant", "per comparison only", "not detected", "identical", "not comparable"];
    expect(verdicts.map(verdictCell)).toEqual(["✓", "per comparison only", "could not detect", "identical", "not comparable"]);
  });
});

describe("perComparisonOnly", () => {
  it("says why an interval that excludes 0 carries no mark: the size of its Holm family", () => {
    expect(perComparisonOnly(36)).toBe("significant per comparison only: the interval excludes 0; not after adjustment over 36 comparisons");
    expect(perComparisonOnly(1)).toContain("over 1 comparison");
  });
});
