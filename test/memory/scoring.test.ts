import { describe, expect, it } from "vitest";
import {
  importanceScore,
  rankRecencyScore,
  recencyScore,
  relevanceScore,
  retrievalScore,
} from "../../src/memory/scoring.js";

describe("recencyScore", () => {
  const t = 1_000_000_000;
  it("is 1 at zero hours since last access", () => expect(recencyScore(t, t)).toBe(1));
  it("is 0.995 one hour after last access", () =>
    expect(recencyScore(t, t - 3_600_000)).toBeCloseTo(0.995, 12));
  it("is decayRate ** hours", () =>
    expect(recencyScore(t, t - 10 * 3_600_000, 0.9)).toBeCloseTo(0.9 ** 10, 12));
  it("clamps a future lastAccessedAt (clock skew) to 1", () =>
    expect(recencyScore(t, t + 5 * 3_600_000)).toBe(1));
  it("does not decay with decayRate 1", () => expect(recencyScore(t, 0, 1)).toBe(1));
  it("honours a custom unit", () => expect(recencyScore(t, t - 60_000, 0.5, 60_000)).toBe(0.5));
});

describe("importanceScore", () => {
  it("maps 10 to 1", () => expect(importanceScore(10)).toBe(1));
  it("maps 5 to 0.5", () => expect(importanceScore(5)).toBe(0.5));
  it("clamps above the scale", () => expect(importanceScore(14)).toBe(1));
  it("clamps below zero", () => expect(importanceScore(-3)).toBe(0));
});

describe("relevanceScore", () => {
  it("is 0 for orthogonal vectors", () => expect(relevanceScore([1, 0, 0], [0, 1, 0])).toBe(0));
  it("is 1 for parallel vectors of any length", () =>
    expect(relevanceScore([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12));
  it("is -1 for opposite vectors", () => expect(relevanceScore([1, 0], [-2, 0])).toBeCloseTo(-1));
  it("is 0 when either vector has zero norm", () => {
    expect(relevanceScore([0, 0, 0], [1, 0, 0])).toBe(0);
    expect(relevanceScore([1, 0, 0], [0, 0, 0])).toBe(0);
  });
  it("refuses vectors of different lengths", () =>
    expect(() => relevanceScore([1, 0], [1, 0, 0])).toThrow(/differ in length/));
});

describe("retrievalScore", () => {
  it("sums equally weighted signals", () => expect(retrievalScore(0.8, 0.9, 0.7)).toBeCloseTo(2.4));
  it("weights each signal", () => expect(retrievalScore(0.5, 1, 1, [2, 0, 0.5])).toBe(1.5));
});

describe("rankRecencyScore", () => {
  it("is decayRate ** position, counted from 1", () => {
    expect(rankRecencyScore(1, 0.99)).toBe(0.99);
    expect(rankRecencyScore(3, 0.99)).toBeCloseTo(0.970299, 12);
  });
});
