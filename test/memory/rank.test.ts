import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minmax, topByPrecedence } from "../../src/memory/rank.js";

describe("minmax", () => {
  it("scales to [0, 1] and gives 0.5 when all values are equal", () => {
    const values = Float64Array.from([2, 4, 6]);
    minmax(values);
    expect([...values]).toEqual([0, 0.5, 1]);
    const same = Float64Array.from([3, 3]);
    minmax(same);
    expect([...same]).toEqual([0.5, 0.5]);
  });
});

describe("topByPrecedence", () => {
  it("returns the same prefix as a full sort, for any depth", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 }), fc.nat(45), (keys, depth) => {
        // Ties on key break by index, making the order total.
        const precedes = (a: number, b: number) => (keys[a] !== keys[b] ? keys[a] > keys[b] : a < b);
        const full = keys.map((_, i) => i).sort((a, b) => (precedes(a, b) ? -1 : 1));
        expect(topByPrecedence(keys.length, depth, precedes)).toEqual(full.slice(0, depth));
      }),
      { seed: 7 },
    );
  });
});
