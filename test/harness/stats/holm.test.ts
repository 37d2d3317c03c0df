import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holm } from "../../../src/harness/stats/holm.js";

describe("holm", () => {
  it("matches a worked example, in input order", () => {
    // p = [0.01, 0.04, 0.03, 0.005], m = 4. Sorted ascending, times (m − rank):
    //   0.005 × 4 = 0.02
    //   0.01  × 3 = 0.03
    //   0.03  × 2 = 0.06
    //   0.04  × 1 = 0.04 → raised to the running maximum, 0.06
    // Back in input order: [0.03, 0.06, 0.06, 0.02].
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    const expected = [0.03, 0.06, 0.06, 0.02];
    adjusted.forEach((p, i) => expect(p).toBeCloseTo(expected[i], 12));
  });

  it("caps adjusted values at 1", () => {
    // 0.01 × 3 = 0.03; 0.6 × 2 = 1.2 → 1; 0.7 × 1 = 0.7 → running maximum 1.
    const adjusted = holm([0.6, 0.01, 0.7]);
    expect(adjusted[0]).toBe(1);
    expect(adjusted[1]).toBeCloseTo(0.03, 12);
    expect(adjusted[2]).toBe(1);
  });

  it("gives each input its own adjusted value", () => {
    const adjusted = holm([0.2, 0.01]);
    expect(adjusted).toStrictEqual([0.2, 0.02]);
  });

  it("leaves a single p-value unchanged and an empty family empty", () => {
    expect(holm([0.037])).toEqual([0.037]);
    expect(holm([])).toEqual([]);
  });

  it("refuses values that are not probabilities", () => {
    expect(() => holm([0.1, 1.5])).toThrow(/pValues\[1\]/);
    expect(() => holm([Number.NaN])).toThrow(RangeError);
    expect(() => holm([-0.01])).toThrow(RangeError);
  });

  it("never lowers a p-value, never exceeds 1 or Bonferroni, and keeps the raw order", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (ps) => {
        const adjusted = holm(ps);
        const m = ps.length;
        ps.forEach((p, i) => {
          expect(adjusted[i]).toBeGreaterThanOrEqual(p);
          expect(adjusted[i]).toBeLessThanOrEqual(Math.min(1, m * p));
          ps.forEach((q, j) => {
            if (p <= q) expect(adjusted[i]).toBeLessThanOrEqual(adjusted[j]);
          });
        });
      }),
    );
  });
});
