import { describe, expect, it } from "vitest";
import { compareResults } from "../../../src/harness/results/compare.js";
import { parseResults, serialiseResults } from "../../../src/harness/results/io.js";
import { analyseSweep } from "../../../src/harness/sweep/analysis.js";
import { withSweep } from "../../fixtures/sweep-results.js";

describe("a recorded sweep", () => {
  it("reads back as it was written, each point's values on one line", () => {
    const results = withSweep();
    const text = serialiseResults(results);
    expect(parseResults("x.json", text)).toEqual(results);
    expect(text).toMatch(/\n {6}"p005": \[[^\n]*\],\n/);
  });

  it("is analysed from its recorded values: held-out interval over asks in scenario clusters, and a comparison with each ablation", () => {
    const results = withSweep();
    const analysis = analyseSweep(results, 1)!;
    expect(analysis.chosenCounts).toEqual([{ id: "p005", folds: results.sweep!.selection.folds.length }]);
    expect(analysis.heldOut.mean).toBe(1);
    expect(analysis.heldOut.nClusters).toBe(results.experiment.scenarios.length);
    expect(analysis.comparisons.map((c) => c.ablation)).toEqual(results.experiment.ablations.map((a) => a.name));
    expect(analysis.optimism).toBeCloseTo(0, 12);
  });

  it("makes the check fail, naming the fold, when the selection changes", () => {
    const recorded = withSweep();
    const fresh = structuredClone(recorded);
    fresh.sweep!.values.p005 = fresh.sweep!.values.p005.map(() => 0);
    fresh.sweep!.selection.folds[0].chosen = "p001";
    fresh.sweep!.selection.chosen = "p001";
    const lines = compareResults(recorded, fresh);
    expect(lines).toContain("timeline-demo: sweep: the point chosen on all asks changed: p005 → p001");
    expect(lines.some((l) => /sweep: fold 1 chose p005 .* → p001/.test(l))).toBe(true);
    expect(lines.some((l) => /sweep: point p005 .*ask\(s\) changed their objective/.test(l))).toBe(true);
    expect(compareResults(recorded, structuredClone(recorded))).toEqual([]);
  });
});
