import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { findRow, summarise } from "../../../src/harness/summary/summarise.js";
import { experimentFindings, renderFindings } from "../../../src/report/markdown/findings.js";
import { formatP } from "../../../src/report/markdown/format.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

const FAST = { seed: 3, bootstrapResamples: 300, testResamples: 2000 };

function findingsOf(results: ExperimentResults) {
  const summary = summarise(results, FAST);
  return { summary, text: experimentFindings(summary, results.experiment).sentences.join(" ") };
}

describe("experimentFindings", () => {
  // A planted improvement on every ask, a copy of the baseline, and a pooled layout.
  let results = syntheticResults();
  results.experiment.cluster = "ask";
  results = addAblation(results, "boosted", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) }));
  results = addAblation(results, "copy", "full");
  results = addAblation(results, "pooled", "full");
  results.experiment.ablations.find((a) => a.name === "pooled")!.policy!.mode = "pooled";
  const { summary, text } = findingsOf(results);

  it("opens with the experiment, its size and its unit", () => {
    expect(text.startsWith("`synthetic` compares 6 ablations with `full` on 15 asks in 2 scenarios, each under 3 seeds; the unit is asks (seeds averaged), each ask independent.")).toBe(true);
  });

  it("gives a significant effect its direction, size, interval and Holm-adjusted p, the units stated once up front", () => {
    const c = findRow(summary, "boosted", "recall_any@1").vsBaseline!;
    expect(c.significant).toBe(true);
    expect(text).toContain(
      `\`boosted\` raises \`recall_any@1\` by ${c.diff.mean.toFixed(3)} (better; [+${c.diff.lo.toFixed(3)}, +${c.diff.hi.toFixed(3)}]; p (Holm) ${formatP(c.pHolm)})`,
    );
  });

  it("joins one ablation's effects on several headline metrics in one sentence, and names units that differ", () => {
    const joined = structuredClone(summary);
    joined.headline = ["recall_any@1", "coverage"];
    for (const metric of joined.headline) {
      const c = findRow(joined, "boosted", metric).vsBaseline!;
      Object.assign(c, { significant: true, pHolm: 0.01, diff: { ...c.diff, mean: 0.5, lo: 0.25, hi: 0.75, nClusters: metric === "coverage" ? 4 : c.diff.nClusters } });
    }
    const sentence = experimentFindings(joined, results.experiment).sentences.find((x) => x.startsWith("`boosted`"))!;
    expect(sentence).toMatch(/^`boosted` raises `recall_any@1` by 0\.500 \(better; \[\+0\.250, \+0\.750\]; p \(Holm\) 0\.010\) and `coverage` by 0\.500 \(better; \[\+0\.250, \+0\.750\], [^;]+; p \(Holm\) 0\.010\)\.$/);
  });

  it("names together what could not be detected, with the minimum detectable effects", () => {
    const sentence = text.slice(text.indexOf("On `recall_any@1`, no difference from `full` was detected for"));
    expect(sentence.slice(0, sentence.indexOf(").") + 2)).toMatch(
      /^On `recall_any@1`, no difference from `full` was detected for `no-decay` \(\|Δ\| ≤ \d\.\d{3}; at 15 independent asks the minimum detectable effect at the family's level 0\.0045 is \d\.\d{3}, so smaller effects could not be detected\)\.$/,
    );
  });

  it("says when an ablation scores exactly as the baseline, instead of calling it undetected", () => {
    expect(text).toContain("`copy` scores exactly as `full` on every ask.");
  });

  it("does not compare rank metrics across layouts, and says so", () => {
    expect(text).toContain("`pooled` ranks over a different section layout than `full` (one list against a section per kind), so its rank metrics are not compared; block coverage is.");
  });

  it("counts the designed failures that hold across seeds", () => {
    expect(text).toMatch(/\d of 1 designed failures hold across seeds \(the seed as the unit, p \(Holm\) < 0\.05\)/);
  });

  it("says when a comparison crosses relevance backends", () => {
    let crossed = addAblation(syntheticResults(), "lexical", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) }));
    crossed.experiment.cluster = "ask";
    const lexical = crossed.experiment.ablations.find((a) => a.name === "lexical")!;
    lexical.policy = { ...lexical.policy!, score: { ...lexical.policy!.score, relevance: "bm25" } };
    const sentence = findingsOf(crossed).text;
    expect(sentence).toContain("`lexical` ranks by bm25 relevance, `full` by words: its comparison crosses relevance backends.");
    crossed = addAblation(crossed, "same-backend", "full", (a) => ({ ...a, ranks: a.ranks.map(() => 1) }));
    const both = structuredClone(crossed);
    both.experiment.ablations.find((a) => a.name === "same-backend")!.policy!.score.relevance = "bm25";
    expect(findingsOf(crossed).text).not.toMatch(/`same-backend`[^.]*crosses/);
    expect(findingsOf(both).text).toContain("`lexical`, `same-backend` rank by bm25 relevance, `full` by words: their comparisons cross relevance backends.");
  });

  it("reports a notable effect (at least its MDE, yet not significant after Holm) as such", () => {
    const notable = structuredClone(summary);
    const c = findRow(notable, "no-touch", "recall_any@1").vsBaseline!;
    Object.assign(c, { significant: false, verdict: "not-detected", pHolm: 0.09, mde: 0.2, diff: { ...c.diff, mean: -0.25, lo: -0.5, hi: 0.01 } });
    expect(experimentFindings(notable, results.experiment).sentences).toContain(
      "`no-touch` lowers `recall_any@1` by 0.250 (worse; [−0.500, +0.010]; " +
        "not significant after Holm, p (Holm) 0.090; the minimum detectable effect at the family's level 0.0045 is 0.200).",
    );
  });

  it("says of an interval that excludes 0 without surviving Holm that it is significant per comparison only", () => {
    // The planted losses of `no-touch`: six of fifteen asks, too few to survive Holm over the family.
    const c = findRow(summary, "no-touch", "recall_any@1").vsBaseline!;
    expect(c.verdict).toBe("per-comparison");
    const sentence = experimentFindings(summary, results.experiment).sentences.find((x) => x.startsWith("`no-touch`"))!;
    expect(sentence).toContain(
      `significant per comparison only (the interval excludes 0; not after Holm over ${summary.families[0].size} comparisons), p (Holm) `,
    );
    expect(text).not.toMatch(/no difference from `full` was detected for [^.]*`no-touch`/);
  });

  it("says no effect can be significant after Holm when the exact test's smallest p is not below the family's level", () => {
    const few = structuredClone(summary);
    const c = findRow(few, "no-decay", "recall_any@1").vsBaseline!;
    Object.assign(c, { verdict: "not-detected", mde: undefined, smallestP: 2 / 2 ** 8, diff: { ...c.diff, nItems: 16, nClusters: 8, df: 3.5 } });
    expect(experimentFindings(few, results.experiment).sentences.join(" ")).toContain(
      "with 8 scenario clusters (Bell–McCaffrey df 3.5) the exact test's smallest p, 0.0078, is not below 0.0045: no effect can be significant after Holm",
    );
  });
});

describe("renderFindings", () => {
  it("gives one paragraph per experiment under one heading", () => {
    expect(renderFindings([{ experiment: "a", sentences: ["One.", "Two."] }, { experiment: "b", sentences: ["Three."] }])).toBe(
      "## Findings\n\nBrackets hold 95% confidence intervals.\n\nOne. Two.\n\nThree.",
    );
    expect(renderFindings([])).toContain("No results are recorded yet.");
  });
});
