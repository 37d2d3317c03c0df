import { describe, expect, it } from "vitest";
import { compareToBaseline } from "../../../src/harness/stats/compare.js";
import { letterFor, letterSystems } from "../../../src/harness/stats/lettering.js";
import { createRng, sampleNormal } from "../../../src/harness/stats/rng.js";

describe("letterSystems", () => {
  it("letters systems in input order and lists whom each beats", () => {
    // Three systems over the same 40 pairs, sharing a per-pair component. "better" is one sd
    // above "full"; "twin" is "full" moved per pair by noise whose mean is exactly zero, so the
    // two are indistinguishable by construction rather than by luck of the draw.
    const rng = createRng(31);
    const shared = Array.from({ length: 40 }, () => sampleNormal(rng));
    const full = shared.map((s) => s + 0.5 * sampleNormal(rng));
    const better = shared.map((s) => s + 0.5 * sampleNormal(rng) + 1);
    const noise = shared.map(() => 0.5 * sampleNormal(rng));
    const noiseMean = noise.reduce((a, b) => a + b, 0) / noise.length;
    const twin = full.map((score, i) => score + noise[i] - noiseMean);
    const table = letterSystems(
      [
        { name: "full", scores: full },
        { name: "better", scores: better },
        { name: "twin", scores: twin },
      ],
      { seed: 1 },
    );
    expect(table.map(({ name, letter, beats }) => ({ name, letter, beats }))).toEqual([
      { name: "full", letter: "a", beats: [] },
      { name: "better", letter: "b", beats: ["a", "c"] },
      { name: "twin", letter: "c", beats: [] },
    ]);
    expect(table[1].mean).toBeGreaterThan(table[0].mean + 0.5);
  });

  it("corrects across every pairwise comparison, not each pair alone", () => {
    // Six pairs where "up" is 1 higher: only the all-plus and all-minus sign assignments reach
    // the observed mean, so p ≈ 2/64 ≈ 0.031. Alone, that is significant at α = 0.05.
    const zeros = new Array<number>(6).fill(0);
    const ones = new Array<number>(6).fill(1);
    const alone = letterSystems(
      [
        { name: "base", scores: zeros },
        { name: "up", scores: ones },
      ],
      { seed: 2 },
    );
    expect(alone[1].beats).toEqual(["a"]);

    // A third system identical to "base" adds two more comparisons; "up" now has two p ≈ 0.031
    // among three, and Holm multiplies the smaller by 3 (≈ 0.094): no longer significant.
    const crowded = letterSystems(
      [
        { name: "base", scores: zeros },
        { name: "up", scores: ones },
        { name: "base-again", scores: zeros },
      ],
      { seed: 2 },
    );
    expect(crowded.map((s) => s.beats)).toEqual([[], [], []]);
  });

  it("lets the lower mean win when lower is better", () => {
    const table = letterSystems(
      [
        { name: "leaky", scores: new Array<number>(6).fill(1) },
        { name: "clean", scores: new Array<number>(6).fill(0) },
      ],
      { seed: 3, higherIsBetter: false },
    );
    expect(table.map((s) => s.beats)).toEqual([[], ["a"]]);
    const reversed = letterSystems(
      [
        { name: "clean", scores: new Array<number>(6).fill(0) },
        { name: "leaky", scores: new Array<number>(6).fill(1) },
      ],
      { seed: 3, higherIsBetter: false },
    );
    expect(reversed.map((s) => s.beats)).toEqual([["b"], []]);
  });

  it("calls a pair significant only when its adjusted p is below alpha, not equal to it", () => {
    // [1, 2, 3, 4]: of the 16 sign assignments only ++++ and −−−− reach |sum| = 10, so p = 2/16.
    const systems = [
      { name: "base", scores: [0, 0, 0, 0] },
      { name: "up", scores: [1, 2, 3, 4] },
    ];
    expect(letterSystems(systems, { seed: 1, alpha: 0.125 })[1].beats).toEqual([]);
    expect(letterSystems(systems, { seed: 1, alpha: 0.13 })[1].beats).toEqual(["a"]);
  });

  it("letters neither system of a significant pair whose means are equal as reported", () => {
    // Six of seven pairs differ by 1 (p = 2/64), but beside a score of 10^17 the two means round
    // to the same number, and a table could not say which system is better.
    const table = letterSystems(
      [
        { name: "low", scores: [1e17, 0, 0, 0, 0, 0, 0] },
        { name: "high", scores: [1e17, 1, 1, 1, 1, 1, 1] },
      ],
      { seed: 1 },
    );
    expect(table[0].mean).toBe(table[1].mean);
    expect(table.map((s) => s.beats)).toEqual([[], []]);
  });

  it("draws each pair's test from the seed's fork named after the two systems", () => {
    // Twenty differences of distinct sizes, with an exact p of about 0.046: with 39 resamples,
    // p = (b + 1)/40 is below 0.05 only if no draw is as extreme as the observed sum. Under seed 9
    // the fork for ("base", "tuned") draws none; these values pin that stream.
    const tuned = [0.02, 0.17, 0.22, -0.13, 0.34, 0.12, 0.25, 0.07, -0.2, 0.19, 0.3, 0.01, 0.14, -0.28, 0.23, 0.09, -0.03, 0.32, 0.05, -0.16];
    const systems = [
      { name: "base", scores: tuned.map(() => 0) },
      { name: "tuned", scores: tuned },
    ];
    expect(letterSystems(systems, { seed: 9, resamples: 39 })[1].beats).toEqual(["a"]);
  });

  it("reports each system's mean as compareToBaseline does, to the last bit", () => {
    // Summed naively, 0.1 + 0.2 + 0.3 is 0.6000000000000001; both sum with a correction for
    // rounding, so that a system's mean is the same number in every table of a report.
    const x = [0.1, 0.2, 0.3];
    const y = [0.3, 0.2, 0.1];
    const [a] = letterSystems(
      [
        { name: "x", scores: x },
        { name: "y", scores: y },
      ],
      { seed: 1 },
    );
    expect(a.mean).toBe(compareToBaseline(x, y, { seed: 1 }).baselineMean);
  });

  it("gives systems without scores mean 0 and no letters", () => {
    expect(
      letterSystems(
        [
          { name: "x", scores: [] },
          { name: "y", scores: [] },
        ],
        { seed: 1 },
      ),
    ).toEqual([
      { name: "x", letter: "a", mean: 0, beats: [] },
      { name: "y", letter: "b", mean: 0, beats: [] },
    ]);
  });

  it("gives identical output for the same seed", () => {
    const systems = [
      { name: "x", scores: [0.1, 0.5, 0.4, 0.9, 0.3] },
      { name: "y", scores: [0.2, 0.6, 0.4, 0.8, 0.5] },
    ];
    expect(letterSystems(systems, { seed: 4 })).toEqual(letterSystems(systems, { seed: 4 }));
  });

  it("handles no systems and a single system", () => {
    expect(letterSystems([], { seed: 1 })).toEqual([]);
    expect(letterSystems([], { seed: 1, items: ["q1", "q1"], clusters: ["c", "c"] })).toEqual([]);
    expect(letterSystems([{ name: "only", scores: [1, 2] }], { seed: 1 })).toEqual([
      { name: "only", letter: "a", mean: 1.5, beats: [] },
    ]);
  });

  it("refuses repeated names and unpaired scores", () => {
    expect(() =>
      letterSystems(
        [
          { name: "x", scores: [1] },
          { name: "x", scores: [2] },
        ],
        { seed: 1 },
      ),
    ).toThrow(/"x" repeats/);
    expect(() =>
      letterSystems(
        [
          { name: "x", scores: [1, 2] },
          { name: "y", scores: [2] },
        ],
        { seed: 1 },
      ),
    ).toThrow(RangeError);
  });
});

describe("letterSystems with items and clusters", () => {
  // Eight asks, the odd ones measured under two seeds and the even ones under one; "up" gains
  // 1 + 0.1·k on ask k, seed for seed.
  const items = Array.from({ length: 8 }, (_, k) => k).flatMap((k) => (k % 2 === 1 ? [k, k] : [k]));
  const base = items.map(() => 0);
  const up = items.map((k) => 1 + 0.1 * k);

  it("compares with the cluster-robust test and reports item-weighted means, as compareToBaseline does", () => {
    const table = letterSystems(
      [
        { name: "base", scores: base },
        { name: "up", scores: up },
      ],
      { seed: 1, items },
    );
    expect(table.map((s) => s.beats)).toEqual([[], ["a"]]);
    // Each ask counts once: (1 + 1.1 + … + 1.7)/8 = 1.35, where the mean of the twelve values
    // is 16.4/12.
    expect(table[1].mean).toBeCloseTo(1.35, 12);
    expect(table[1].mean).toBe(compareToBaseline(base, up, { seed: 1, items }).ablationMean);
  });

  it("refuses labels that do not match the scores, naming itself", () => {
    const message = /^letterSystems: items must have one label per value \(3\), got 2$/;
    const options = { seed: 1, items: [1, 2] };
    expect(() => letterSystems([{ name: "only", scores: [1, 2, 3] }], options)).toThrow(message);
    expect(() =>
      letterSystems(
        [
          { name: "x", scores: [1, 2, 3] },
          { name: "y", scores: [1, 2, 4] },
        ],
        options,
      ),
    ).toThrow(message);
  });
});

describe("letterFor", () => {
  it("runs a … z, then aa, ab … so every system gets its own label", () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(letterFor)).toEqual([
      "a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa",
    ]);
  });
});
