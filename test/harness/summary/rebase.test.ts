import { describe, expect, it } from "vitest";
import { rebase } from "../../../src/harness/summary/rebase.js";
import { findRow, summarise } from "../../../src/harness/summary/summarise.js";
import { syntheticResults } from "../../fixtures/synthetic-results.js";

describe("rebase", () => {
  const results = syntheticResults();
  const view = rebase(results, "no-decay", ["no-touch", "relevance-only"]);

  it("keeps the new reference and the named ablations, the reference first, the rest in the experiment's order", () => {
    expect(view.experiment.baseline).toBe("no-decay");
    expect(view.experiment.ablations.map((a) => a.name)).toEqual(["no-decay", "relevance-only", "no-touch"]);
    expect(view.experiment.ablations[1]).toEqual(results.experiment.ablations.find((a) => a.name === "relevance-only"));
  });

  it("keeps only their trials, as they were", () => {
    expect(new Set(view.trials.map((t) => t.ablation))).toEqual(new Set(["no-decay", "relevance-only", "no-touch"]));
    expect(view.trials).toEqual(results.trials.filter((t) => t.ablation !== "full"));
  });

  it("drops the scenarios' designed failures, which are claims against the file's own baseline, and keeps their asks", () => {
    expect(results.experiment.scenarios.some((s) => s.targets.length > 0)).toBe(true);
    expect(view.experiment.scenarios.map((s) => s.targets)).toEqual(view.experiment.scenarios.map(() => []));
    expect(view.experiment.scenarios.map((s) => s.asks)).toEqual(results.experiment.scenarios.map((s) => s.asks));
  });

  it("leaves the results it was given untouched", () => {
    const before = structuredClone(results);
    rebase(results, "no-touch", ["full"]);
    expect(results).toEqual(before);
  });

  it("summarises as comparisons with the new reference, in a Holm family of this view's comparisons alone", () => {
    const summary = summarise(view, { seed: 1, bootstrapResamples: 200, testResamples: 200 });
    expect(summary.baseline).toBe("no-decay");
    expect(findRow(summary, "no-decay", "recall_any@1").vsBaseline).toBeUndefined();
    const comparison = findRow(summary, "relevance-only", "recall_any@1").vsBaseline!;
    // The headline family of "all": two headline metrics for each of the two ablations, nothing of full.
    const members = summary.rows.filter((r) => r.vsBaseline?.family === comparison.family);
    expect(members.map((r) => `${r.ablation} ${r.metric}`).sort()).toEqual([
      "no-touch coverage",
      "no-touch recall_any@1",
      "relevance-only coverage",
      "relevance-only recall_any@1",
    ]);
    expect(summary.families.find((f) => f.name === comparison.family)!.size).toBe(4);
    expect(summary.rows.some((r) => r.ablation === "full")).toBe(false);
  });

  it("refuses an ablation the experiment does not have, naming it", () => {
    expect(() => rebase(results, "embedding", ["no-touch", "pooled"])).toThrow('experiment "synthetic" has no ablation "embedding", "pooled"');
  });
});
