import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { findRow, summarise } from "../../../src/harness/summary/summarise.js";
import type { ExperimentSummary } from "../../../src/harness/summary/types.js";
import { experimentFindings, renderFindings } from "../../../src/report/markdown/findings.js";
import { formatSignedInterval } from "../../../src/report/markdown/format.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

const FAST = { seed: 3, bootstrapResamples: 300, testResamples: 2000 };

function findingsOf(results: ExperimentResults, summary: ExperimentSummary = summarise(results, FAST)) {
  const sentences = experimentFindings(summary, results).sentences;
  return { summary, sentences, text: sentences.join(" ") };
}

const allFirst = (a: ExperimentResults["trials"][number]["asks"][number]) => ({ ...a, ranks: a.ranks.map(() => 1) });

/**
 * Every ask its own unit, and: a planted improvement (`boosted`) with an identical twin, a near
 * match ranking by bm25 (`lexical`), a copy of the baseline, and a pooled layout. The fixture's
 * own `relevance-only` and `no-touch` lose on a few asks: significant per comparison only.
 */
function planted(): ExperimentResults {
  let results = syntheticResults();
  results.experiment.cluster = "ask";
  results = addAblation(results, "boosted", "full", allFirst);
  results = addAblation(results, "boosted-twin", "boosted");
  results = addAblation(results, "lexical", "full", (a) => ({ ...a, ranks: a.ranks.map(() => (a.ask === "q1" ? 9 : 1)) }));
  results.experiment.ablations.find((a) => a.name === "lexical")!.policy!.score.relevance = "bm25";
  results = addAblation(results, "copy", "full");
  results = addAblation(results, "pooled", "full", allFirst);
  results.experiment.ablations.find((a) => a.name === "pooled")!.policy!.mode = "pooled";
  return results;
}

describe("experimentFindings", () => {
  const results = planted();
  const { summary, sentences, text } = findingsOf(results);

  it("opens with one recommendation sentence, then the experiment, its size and its unit", () => {
    expect(sentences[0]).toMatch(/^`synthetic`: use `boosted` = `boosted-twin` on `recall_any@1` /);
    expect(sentences[1]).toBe("It compares 8 ablations with `full` on 15 asks in 2 scenarios, each under 3 seeds; the unit is asks (seeds averaged), each ask independent.");
  });

  it("states ablations identical on every ask once, as a group, and a copy of the baseline as such", () => {
    expect(text).toContain("`boosted` = `boosted-twin` +");
    expect(text.match(/`boosted-twin`/g)).toHaveLength(text.match(/`boosted`/g)!.length);
    expect(text).toContain("`copy` scores exactly as `full` on every ask and metric.");
    expect(text).not.toMatch(/`copy` [+−]/);
  });

  it("gives the significant effects, largest first, with their intervals, under their Holm family's size", () => {
    const boosted = findRow(summary, "boosted", "recall_any@1").vsBaseline!;
    const lexical = findRow(summary, "lexical", "recall_any@1").vsBaseline!;
    const size = summary.families.find((f) => f.name === boosted.family)!.size;
    expect(text).toContain(
      `On \`recall_any@1\`, significant after Holm over ${size} comparisons, better than \`full\`: \`boosted\` = \`boosted-twin\` ${formatSignedInterval(boosted.diff)}; ` +
        `\`lexical\` ${formatSignedInterval(lexical.diff)} (across relevance backends, bm25 against words).`,
    );
  });

  it("labels every comparison across relevance backends where it is stated, in the recommendation too", () => {
    expect(sentences[0]).toContain("over the runner-up, `lexical` (0.933; across relevance backends, words against bm25)");
    for (const sentence of sentences) {
      if (sentence.includes("`lexical`")) expect(sentence).toContain("across relevance backends");
    }
    expect(text).not.toContain("crosses relevance backends");
  });

  it("says when a difference is significant per comparison only, never that it was not detected", () => {
    const c = findRow(summary, "no-touch", "recall_any@1").vsBaseline!;
    expect(c.significant).toBe(false);
    expect(c.diff.hi).toBeLessThan(0);
    const size = summary.families.find((f) => f.name === c.family)!.size;
    const sentence = sentences.find((s) => s.includes("significant per comparison only"))!;
    expect(sentence).toContain(`\`no-touch\` ${formatSignedInterval(c.diff)}`);
    expect(sentence).toMatch(new RegExp(`are significant per comparison only: the interval excludes 0; not after adjustment over ${size} comparisons\\.$`));
    expect(sentences.find((s) => s.startsWith("On `recall_any@1`, no difference"))).not.toContain("`no-touch`");
  });

  it("names together what could not be detected, with the minimum detectable effects", () => {
    const c = findRow(summary, "no-decay", "recall_any@1").vsBaseline!;
    expect(text).toContain(
      `On \`recall_any@1\`, no difference from \`full\` was detected (|Δ| ≤ ${Math.abs(c.diff.mean).toFixed(3)}; minimum detectable effect at the family's level ${(0.05 / summary.families[0].size).toPrecision(2)} ${c.mde!.toFixed(3)}) for \`no-decay\`.`,
    );
  });

  it("contradicts no interval: each listed difference lies on the side of 0 its verdict says", () => {
    const stated = sentences.filter((s) => (s.startsWith("On ") || s.startsWith("Worse")) && s.includes("significant"));
    expect(stated.length).toBeGreaterThanOrEqual(2);
    for (const sentence of stated) {
      const intervals = [...sentence.matchAll(/([+−]?\d\.\d{3}) \[([+−]?\d\.\d{3}), ([+−]?\d\.\d{3})\]/g)].map((m) => m.slice(1).map((x) => Number(x.replace("−", "-"))));
      const excluding = intervals.every(([, lo, hi]) => lo > 0 || hi < 0);
      expect(excluding, sentence).toBe(true);
    }
  });

  it("does not compare rank metrics across layouts, and says so", () => {
    expect(text).toContain("`pooled` ranks over a different section layout than `full` (one list against a section per kind), so its rank metrics are not compared; block coverage is.");
    expect(sentences[0]).not.toContain("`pooled`");
  });

  it("counts the designed failures that hold across seeds", () => {
    expect(text).toMatch(/\d of 1 designed failures hold across seeds \(the seed as the unit, p \(Holm\) < 0\.05\)/);
  });

  it("names units only where they differ from the experiment's", () => {
    expect(text).toContain("On `coverage` (over 12 asks, each its own unit)");
    expect(text).not.toContain("On `recall_any@1` (over");
  });

  it("when nothing is detected for any policy, says so instead of naming each again, with the backends crossed", () => {
    let quiet = addAblation(syntheticResults(), "lexical", "no-decay");
    quiet.experiment.ablations.find((a) => a.name === "lexical")!.policy!.score.relevance = "bm25";
    quiet = addAblation(quiet, "nudged", "full", (a) => (a.ask === "q1" ? allFirst(a) : a));
    const own = findingsOf(quiet).sentences.find((s) => s.startsWith("On `recall_any@1`, no difference"))!;
    expect(own).toMatch(/^On `recall_any@1`, no difference from `full` was detected \([^)]+\) for any of the \d+ policies compared \(those ranking by bm25 relevance compare across relevance backends, against words\)\.$/);
  });

  it("says once why no difference can be significant after Holm when the exact test's smallest p is not below the family's level", () => {
    const few = structuredClone(summary);
    const c = findRow(few, "no-decay", "recall_any@1").vsBaseline!;
    Object.assign(c, { verdict: "not-detected", mde: undefined, smallestP: 2 / 2 ** 8, diff: { ...c.diff, nItems: 16, nClusters: 8, df: 3.5 } });
    const said = experimentFindings(few, results).sentences.filter((x) => x.includes("smallest p"));
    expect(said).toEqual([
      `With 8 scenario clusters (Bell–McCaffrey df 3.5), the exact sign-flip test's smallest p is 0.0078, not below ${(0.05 / few.families[0].size).toPrecision(2)} (0.05 over ${few.families[0].size} comparisons): no difference can be significant after Holm's adjustment here, only per comparison.`,
    ]);
  });

  it("says so under Westfall–Young only when the smallest p is not below α itself, the least that adjustment needs", () => {
    const joint = (smallestP: number, nClusters: number) => {
      const few = structuredClone(summary);
      for (const row of few.rows) if (row.vsBaseline !== undefined) row.vsBaseline.adjustment = "westfall-young";
      const c = findRow(few, "no-decay", "recall_any@1").vsBaseline!;
      Object.assign(c, { verdict: "not-detected", mde: undefined, smallestP, diff: { ...c.diff, nItems: 16, nClusters, df: 3.5 } });
      return experimentFindings(few, results).sentences.filter((x) => x.includes("smallest p"));
    };
    // 8 clusters: 2/256 passes α, so Westfall–Young can find a difference significant; Holm could not.
    expect(joint(2 / 2 ** 8, 8)).toEqual([]);
    expect(joint(2 / 2 ** 5, 5)).toEqual([
      "With 5 scenario clusters (Bell–McCaffrey df 3.5), the exact sign-flip test's smallest p is 0.063, not below 0.050: no difference can be significant after Westfall–Young's adjustment here, only per comparison.",
    ]);
  });

  it("names the adjustment that made a difference significant", () => {
    const joint = structuredClone(summary);
    for (const row of joint.rows) if (row.vsBaseline !== undefined) row.vsBaseline.adjustment = "westfall-young";
    const size = joint.families.find((f) => f.name === findRow(joint, "boosted", "recall_any@1").vsBaseline!.family)!.size;
    expect(findingsOf(results, joint).text).toContain(`On \`recall_any@1\`, significant after Westfall–Young over ${size} comparisons, better than \`full\``);
  });
});

describe("renderFindings", () => {
  it("gives one paragraph per experiment under one heading, saying once what brackets and groups mean", () => {
    expect(renderFindings([{ experiment: "a", sentences: ["One.", "Two."] }, { experiment: "b", sentences: ["Three."] }])).toBe(
      "## Findings\n\nBrackets hold 95% confidence intervals, per comparison; `a` = `b` names policies that score alike on every ask and metric, stated once.\n\nOne. Two.\n\nThree.",
    );
    expect(renderFindings([])).toContain("No results are recorded yet.");
  });
});
