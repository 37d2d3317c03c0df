import { mean as sampleMean } from "simple-statistics";
import { groupLabels, hasStructure, itemWeightedMean, reduceGrouped, type Structure } from "./clusters.js";
import { clusteredP } from "./clustered-test.js";
import { holm } from "./holm.js";
import { toRng, type Seed } from "./rng.js";
import { pairedDifferences, signFlipTest } from "./sign-flip.js";

export interface LetteringSystem {
  name: string;
  /** One score per (ask, seed) pair, in the same pair order for every system. */
  scores: readonly number[];
}

export interface LetteringOptions extends Structure {
  seed: Seed;
  resamples?: number;
  /** Family-wise error rate across all pairwise comparisons. */
  alpha?: number;
  /** False for metrics where lower is better (e.g. leakage of corrected facts). */
  higherIsBetter?: boolean;
}

export interface LetteredSystem {
  name: string;
  letter: string;
  mean: number;
  /** Letters of the systems this one is significantly better than, in letter order. */
  beats: string[];
}

/**
 * Significance lettering in the style of ranx's comparison tables: each system gets a letter
 * (a, b, c … in input order) and lists the letters of the systems it is significantly better
 * than. Every pair of systems is compared with a paired test (a sign-flip test, or with `items`
 * or `clusters` the test of compareToBaseline, exact with 12 clusters or fewer), and the p-values of all those
 * comparisons are Holm-corrected together, so the whole table holds its error rate at `alpha`,
 * not each cell separately.
 *
 * Each pair's test draws from a fork of `seed` named after the two systems, so a pair's p-value
 * does not depend on which other systems are in the table.
 */
export function letterSystems(
  systems: readonly LetteringSystem[],
  options: LetteringOptions,
): LetteredSystem[] {
  const { alpha = 0.05, higherIsBetter = true } = options;
  const names = new Set<string>();
  for (const system of systems) {
    if (names.has(system.name)) {
      throw new RangeError(`letterSystems: system names must be unique, "${system.name}" repeats`);
    }
    names.add(system.name);
  }

  const rng = toRng(options.seed);
  // Every system has a score per (ask, seed) pair in one order, so one grouping serves all.
  const grouping = hasStructure(options) && systems.length > 0 ? groupLabels("letterSystems", systems[0].scores.length, options) : undefined;
  const pairs: { i: number; j: number; p: number }[] = [];
  systems.forEach((first, i) => {
    for (let j = i + 1; j < systems.length; j++) {
      const second = systems[j];
      const diffs = pairedDifferences(first.scores, second.scores);
      const p = grouping
        ? clusteredP(reduceGrouped(diffs, grouping))
        : signFlipTest(diffs, { seed: rng.fork(`${first.name}\u0000${second.name}`), resamples: options.resamples }).p;
      pairs.push({ i, j, p });
    }
  });
  const adjusted = holm(pairs.map((pair) => pair.p));

  const means = systems.map((system) => {
    if (grouping) return itemWeightedMean(reduceGrouped(system.scores, grouping));
    return system.scores.length === 0 ? 0 : sampleMean(system.scores);
  });
  const beaten = systems.map(() => new Set<number>());
  pairs.forEach(({ i, j }, k) => {
    if (!(adjusted[k] < alpha)) return;
    // A significant pair whose means are equal as reported gets no letter: the table could not
    // say which is better.
    const iAhead = higherIsBetter ? means[i] - means[j] : means[j] - means[i];
    if (iAhead > 0) beaten[i].add(j);
    if (iAhead < 0) beaten[j].add(i);
  });

  const letters = systems.map((_, i) => letterFor(i));
  return systems.map((system, i) => ({
    name: system.name,
    letter: letters[i],
    mean: means[i],
    beats: letters.filter((_, j) => beaten[i].has(j)),
  }));
}

/** a … z, then aa, ab …: bijective base 26, so any number of systems gets a distinct label. */
export function letterFor(index: number): string {
  let label = "";
  for (let k = index + 1; k > 0; k = Math.floor((k - 1) / 26)) {
    label = String.fromCharCode(97 + ((k - 1) % 26)) + label;
  }
  return label;
}

