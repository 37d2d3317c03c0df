import { describe, expect, it } from "vitest";
import type { Comparison } from "../../../src/harness/summary/types.js";
import { verdictOf } from "../../../src/report/charts/verdict.js";

function comparison(diff: [number, number, number], p: number, pHolm: number, extra: Partial<Comparison> = {}): Comparison {
  const [mean, lo, hi] = diff;
  return {
    diff: { mean, lo, hi, n: 20, nItems: 20, nClusters: 10 },
    p,
    pHolm,
    significant: pHolm < 0.05,
    family: "all asks, headline metrics",
    comparable: true,
    wins: 5,
    ties: 10,
    losses: 5,
    ...extra,
  };
}

describe("verdictOf", () => {
  it("is significant after adjustment when Holm's p is under 0.05", () => {
    expect(verdictOf(comparison([-0.3, -0.5, -0.1], 0.001, 0.01))).toBe("significant after adjustment");
  });

  it("is significant per comparison only when the interval rules out zero but Holm's p does not", () => {
    expect(verdictOf(comparison([-0.3, -0.583, -0.067], 0.01, 0.2))).toBe("significant per comparison only");
    expect(verdictOf(comparison([0.2, 0.01, 0.4], 0.03, 0.5))).toBe("significant per comparison only");
  });

  it("takes the verdict the summary recorded, the one every report states", () => {
    expect(verdictOf(comparison([0.2, 0.01, 0.4], 0.03, 0.5, { verdict: "not-detected" }))).toBe("could not detect");
    expect(verdictOf(comparison([0, 0, 0], 1, 1, { wins: 0, losses: 0, ties: 20 }))).toBe("could not detect");
  });

  it("could not detect a difference whose interval holds zero and whose p is 0.05 or more", () => {
    expect(verdictOf(comparison([-0.009, -0.1, 0.08], 0.8, 1))).toBe("could not detect");
    expect(verdictOf(comparison([0, 0, 0], 1, 1))).toBe("could not detect");
  });

  it("gives no verdict to a comparison that is not comparable", () => {
    expect(verdictOf(comparison([-0.3, -0.5, -0.1], 0.001, 1, { comparable: false, significant: false }))).toBeNull();
  });
});
