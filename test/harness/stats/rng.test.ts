import { describe, expect, it } from "vitest";
import { createRng, forkByData, type Rng, sampleNormal, toRng } from "../../../src/harness/stats/rng.js";

const draw = (seed: number, count = 20) => {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => rng.nextFloat());
};

/** Pearson chi-square of observed counts against equal expected counts. */
const chiSquare = (counts: number[]) => {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
};

describe("createRng", () => {
  it("gives the same sequence for the same seed", () => {
    expect(draw(7)).toEqual(draw(7));
  });

  it("gives different sequences for different seeds", () => {
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("starts neighbouring seeds with unrelated draws", () => {
    // The first draw of seeds 0..1999 should be spread evenly over [0, 1), not march in step
    // with the seed. 10 bins, 9 degrees of freedom: 27.9 is the 0.999 quantile.
    const bins = new Array<number>(10).fill(0);
    for (let seed = 0; seed < 2000; seed++) bins[Math.floor(createRng(seed).nextFloat() * 10)]++;
    expect(chiSquare(bins)).toBeLessThan(27.9);
  });

  it("refuses a seed that is not a safe integer", () => {
    expect(() => createRng(1.5)).toThrow(RangeError);
    expect(() => createRng(Number.NaN)).toThrow(/^createRng: seed must be a safe integer, got NaN$/);
  });

  it("draws what the seed's hash fixes, so that recorded results can be reproduced", () => {
    // Every seeded result depends on these numbers: a change to how a seed becomes a stream
    // changes them all, and must be made knowingly.
    expect(createRng(1).nextFloat()).toBe(0.2739846056000669);
    expect(createRng(7).nextFloat()).toBe(0.8921774775984246);
  });

  it("toRng passes a stream through and seeds a number", () => {
    const rng = createRng(3);
    expect(toRng(rng)).toBe(rng);
    expect(toRng(3).nextFloat()).toBe(createRng(3).nextFloat());
  });
});

describe("nextFloat", () => {
  it("stays in [0, 1) and averages one half", () => {
    const rng = createRng(11);
    const values = Array.from({ length: 20_000 }, () => rng.nextFloat());
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.49);
    expect(mean).toBeLessThan(0.51);
  });
});

describe("nextInt", () => {
  it("draws every integer in [0, max) evenly and nothing outside it", () => {
    const rng = createRng(12);
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 7000; i++) {
      const k = rng.nextInt(7);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
      counts[k]++;
    }
    // 6 degrees of freedom: 22.5 is the 0.999 quantile.
    expect(chiSquare(counts)).toBeLessThan(22.5);
  });

  it("returns 0 when max is 1", () => {
    expect(createRng(1).nextInt(1)).toBe(0);
  });

  it("refuses a max that is not a positive integer", () => {
    const rng = createRng(1);
    expect(() => rng.nextInt(0)).toThrow(RangeError);
    expect(() => rng.nextInt(-3)).toThrow(RangeError);
    expect(() => rng.nextInt(2.5)).toThrow(/^nextInt: maxExclusive must be a positive integer, got 2.5$/);
  });
});

describe("shuffle", () => {
  it("returns a new array holding the same items and leaves the input alone", () => {
    const input = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const shuffled = createRng(5).shuffle(input);
    expect(shuffled).not.toBe(input);
    expect(input).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(input);
  });

  it("makes every order equally likely", () => {
    // A common off-by-one (drawing j from the whole array at every step) makes some of the six
    // orders of three items 25% likelier than others; that scores a chi-square near 70 here.
    const rng = createRng(6);
    const counts = new Map<string, number>();
    for (let i = 0; i < 6000; i++) {
      const key = rng.shuffle(["a", "b", "c"]).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    // 5 degrees of freedom: 20.5 is the 0.999 quantile.
    expect(chiSquare([...counts.values()])).toBeLessThan(20.5);
  });

  it("draws n − 1 times for n items: nextInt(n), nextInt(n − 1) … nextInt(2)", () => {
    // A last draw of nextInt(1) could only swap an item with itself, but it would still advance
    // the stream and shift every draw after the shuffle.
    const shuffling = createRng(8);
    const drawing = createRng(8);
    shuffling.shuffle(["a", "b", "c"]);
    drawing.nextInt(3);
    drawing.nextInt(2);
    expect(shuffling.nextFloat()).toBe(drawing.nextFloat());
  });

  it("handles empty and single-item arrays", () => {
    expect(createRng(1).shuffle([])).toEqual([]);
    expect(createRng(1).shuffle(["only"])).toEqual(["only"]);
  });
});

describe("fork", () => {
  it("derives the same stream from the same label, whatever was drawn from the parent", () => {
    const fresh = createRng(9);
    const used = createRng(9);
    for (let i = 0; i < 100; i++) used.nextFloat();
    const a = fresh.fork("trial-3");
    const b = used.fork("trial-3");
    expect(Array.from({ length: 10 }, () => a.nextFloat())).toEqual(
      Array.from({ length: 10 }, () => b.nextFloat()),
    );
  });

  it("derives different streams from different labels and different parents", () => {
    const first = (rng: { nextFloat(): number }) => rng.nextFloat();
    const root = createRng(9);
    expect(first(root.fork("trial-1"))).not.toBe(first(root.fork("trial-2")));
    expect(first(createRng(9).fork("x"))).not.toBe(first(createRng(10).fork("x")));
    expect(first(root.fork("a").fork("b"))).not.toBe(first(root.fork("b").fork("a")));
  });

  it("derives a fork from the parent's whole key and the label by a fixed hash", () => {
    // Seed 4's key has a word below 0x10000000: the key enters the label with eight hex digits
    // a word, so that such a word cannot run into its neighbour.
    expect(createRng(4).fork("trial-1").nextFloat()).toBe(0.7774364433030576);
    expect(createRng(1).fork("trial-1").nextFloat()).toBe(0.6846776616395307);
  });

  it("does not advance the parent", () => {
    const a = createRng(4);
    const b = createRng(4);
    a.fork("side").nextFloat();
    expect(a.nextFloat()).toBe(b.nextFloat());
  });
});

describe("forkByData", () => {
  it("keys the stream by every bit of the values", () => {
    // 1 and 2 differ only in the high half of their 64 bits, 1 and 1 + 2⁻⁵² only in the low half.
    const root = createRng(1);
    const first = (values: number[]) => forkByData(root, values).nextFloat();
    const draws = [first([1]), first([2]), first([1 + 2 ** -52]), first([1, 1])];
    expect(new Set(draws).size).toBe(draws.length);
    expect(draws).not.toContain(first([]));
    expect(first([1])).toBe(forkByData(createRng(1), [1]).nextFloat());
  });

  it("draws what the parent's seed and the values fix", () => {
    // Identical data get identical intervals and p-values from this stream, run after run.
    expect(forkByData(createRng(1), [0.5]).nextFloat()).toBe(0.15287641836660248);
  });
});

describe("sampleNormal", () => {
  it("is Box–Muller: mean + sd·√(−2 ln(1 − u₁))·cos(2π·u₂)", () => {
    // A scripted stream fixes the two uniforms: u₁ = 0.5 makes the radius √(2 ln 2), and u₂ = 0
    // or 0.5 puts the draw that far above or below the mean.
    const scripted = (floats: number[]): Rng => ({
      nextFloat: () => floats.shift()!,
      nextInt: () => 0,
      shuffle: (items) => items.slice(),
      fork: () => scripted(floats),
    });
    expect(sampleNormal(scripted([0.5, 0]), 3, 2)).toBeCloseTo(3 + 2 * Math.sqrt(2 * Math.LN2), 12);
    expect(sampleNormal(scripted([0.5, 0.5]), 3, 2)).toBeCloseTo(3 - 2 * Math.sqrt(2 * Math.LN2), 12);
  });

  it("draws finite values with the requested mean and sd", () => {
    const rng = createRng(21);
    const n = 20_000;
    const xs = Array.from({ length: n }, () => sampleNormal(rng, 3, 2));
    expect(xs.every(Number.isFinite)).toBe(true);
    const mean = xs.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
    // Standard errors: 0.014 for the mean, 0.01 for the sd.
    expect(mean).toBeCloseTo(3, 1);
    expect(sd).toBeGreaterThan(1.96);
    expect(sd).toBeLessThan(2.04);
  });
});
