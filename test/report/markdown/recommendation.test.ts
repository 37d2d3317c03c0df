import { describe, expect, it } from "vitest";
import { metricNames } from "../../../src/harness/metrics.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { costRows } from "../../../src/harness/summary/cost.js";
import { DEFAULT_SUMMARY_SEED, comparePair, findRow, summarise } from "../../../src/harness/summary/summarise.js";
import { formatSignedInterval } from "../../../src/report/markdown/format.js";
import { recommendation } from "../../../src/report/markdown/recommendation.js";
import { identicalGroups } from "../../../src/report/markdown/same-asks.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

const FAST = { seed: 3, bootstrapResamples: 300, testResamples: 2000 };

function recommend(results: ExperimentResults): { text: string; summary: ReturnType<typeof summarise> } {
  const summary = summarise(results, FAST);
  const groups = identicalGroups(results, metricNames(results.experiment.k));
  return { summary, text: recommendation(summary, results, groups, costRows(results, summary.headline[0]), "`synthetic`") };
}

/** The synthetic experiment with every ask its own unit, so that planted effects can be detected. */
function independent(): ExperimentResults {
  const results = syntheticResults();
  results.experiment.cluster = "ask";
  return results;
}

const allFirst = (a: ExperimentResults["trials"][number]["asks"][number]) => ({ ...a, ranks: a.ranks.map(() => 1) });

describe("recommendation", () => {
  it("keeps the default when nothing scores better, naming the runner-up with its difference and verdict", () => {
    const { text, summary } = recommend(syntheticResults());
    const runnerUp = findRow(summary, "no-decay", "recall_any@1").vsBaseline!;
    expect(text).toBe(
      `\`synthetic\`: keep the default \`full\` on \`recall_any@1\` (${findRow(summary, "full", "recall_any@1").value.mean.toFixed(3)}): nothing compared scores better; ` +
        `the runner-up, \`no-decay\` (${findRow(summary, "no-decay", "recall_any@1").value.mean.toFixed(3)}), differs from it by ${formatSignedInterval(runnerUp.diff)} ` +
        "(not detected: the interval includes 0).",
    );
    // Two scenario clusters: the exact test's smallest p (2/4) can never pass, so there is no effect to call detectable.
    expect(runnerUp.mde).toBeUndefined();
  });

  it("recommends the best policy when it beats the default after Holm, with its group, and tests the runner-up against it per comparison", () => {
    let results = addAblation(independent(), "boosted", "full", allFirst);
    results = addAblation(results, "boosted-twin", "boosted");
    // Better than the default, but behind `boosted` on one ask, and ranking by another backend.
    results = addAblation(results, "lexical", "full", (a) => ({ ...a, ranks: a.ranks.map(() => (a.ask === "q1" ? 9 : 1)) }));
    results.experiment.ablations.find((a) => a.name === "lexical")!.policy!.score.relevance = "bm25";
    const { text, summary } = recommend(results);
    const vs = findRow(summary, "boosted", "recall_any@1").vsBaseline!;
    const pair = comparePair(results, "lexical", "boosted", "recall_any@1", DEFAULT_SUMMARY_SEED);
    expect(vs.significant).toBe(true);
    expect(text).toBe(
      "`synthetic`: use `boosted` = `boosted-twin` on `recall_any@1` (1.000 against 0.511 for the default `full`): " +
        `${formatSignedInterval(vs.diff)} (significant after Holm over ${summary.families.find((f) => f.name === vs.family)!.size} comparisons, p (Holm) <0.001) over the default, ` +
        `and ${formatSignedInterval(pair.diff)} over the runner-up, \`lexical\` (0.933; across relevance backends, words against bm25), which cannot be told apart (p ${pair.p.toFixed(3)}, per comparison).`,
    );
  });

  it("says the default is the only policy beaten when the runner-up is the default itself", () => {
    const { text } = recommend(addAblation(independent(), "boosted", "full", allFirst));
    expect(text).toMatch(/^`synthetic`: use `boosted` on `recall_any@1` .*; no other policy beats the default\.$/);
  });

  it("keeps the default when the best mean does not beat it after Holm, and says why", () => {
    // One ask better out of fifteen: a higher mean, nothing detected.
    const results = addAblation(syntheticResults(), "nudged", "full", (a) => (a.ask === "q1" ? allFirst(a) : a));
    const { text } = recommend(results);
    expect(text).toMatch(/^`synthetic`: keep the default `full` on `recall_any@1` \(0\.\d{3}\): the best mean, `nudged`'s 0\.\d{3}, differs from it by \+0\.\d{3} \[[^\]]+\] \(not detected: the interval includes 0/);
  });

  it("lets no policy win on a rank metric it is not compared on: another section layout", () => {
    const results = addAblation(independent(), "pooled-best", "full", allFirst);
    results.experiment.ablations.find((a) => a.name === "pooled-best")!.policy!.mode = "pooled";
    const { text } = recommend(results);
    expect(text).toMatch(/^`synthetic`: keep the default `full`/);
    expect(text).not.toContain("pooled-best");
  });

  it("lets no policy win with more tokens than its budget", () => {
    const results = addAblation(independent(), "stuffed", "full", (a) => ({ ...a, coverage: a.coverage === null ? null : 1, tokens: 10_000 }));
    results.experiment.ablations.find((a) => a.name === "stuffed")!.budget = 100;
    results.experiment.headline = ["coverage"];
    const { text } = recommend(results);
    expect(text).toMatch(/^`synthetic`: keep the default `full` on `coverage`/);
    expect(text).not.toContain("stuffed");
  });

  it("takes the lowest mean as the best on a metric where lower is better", () => {
    let results = addAblation(independent(), "leaky", "full", (a) => ({ ...a, leaked: ["stale"] }));
    results = addAblation(results, "clean", "full", (a) => ({ ...a, leaked: [] }));
    // The default leaks on a third of the benchmark's asks; `clean` never does.
    for (const trial of results.trials.filter((t) => t.ablation === "full")) {
      trial.asks = trial.asks.map((a) => (["q1", "q2", "q3", "q4", "q5"].includes(a.ask) ? { ...a, leaked: ["stale"] } : a));
    }
    results.experiment.headline = ["leakage"];
    const { text } = recommend(results);
    // Five asks of fifteen are too few to survive Holm, so the default is kept; the best is a policy that never leaks.
    expect(text).toMatch(/^`synthetic`: keep the default `full` on `leakage` \(0\.333, lower is better\): the best mean, `[a-z-]+`'s 0\.000, differs from it by −0\.333 /);
    expect(text).not.toContain("`leaky`");
  });
});
