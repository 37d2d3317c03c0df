import { describe, expect, it } from "vitest";
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

describe("letterFor", () => {
  it("runs a … z, then aa, ab … so every system gets its own label", () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(letterFor)).toEqual([
      "a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa",
    ]);
  });
});
