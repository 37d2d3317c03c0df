import { describe, expect, it } from "vitest";
import { describeValues } from "../../../src/harness/experiment/sweep-points.js";
import { analyseSweep } from "../../../src/harness/sweep/analysis.js";
import { sweepFoldsChart, sweepHeatmapChart } from "../../../src/report/charts/sweep-charts.js";
import { withSweep } from "../../fixtures/sweep-results.js";
import { specValues } from "./spec-data.js";

describe("the sweep charts", () => {
  const results = withSweep();
  const analysis = analyseSweep(results, 7)!;
  const settingsOf = (id: string) => describeValues(results.sweep!.points.find((p) => p.id === id)!.values);

  it("name each fold's choice by its settings, not by a point id", () => {
    const values = specValues(sweepFoldsChart("demo", analysis));
    expect(values.map((v) => v.settings)).toEqual(results.sweep!.selection.folds.map((f) => settingsOf(f.chosen)));
    expect(values[0]!.settings).toMatch(/^score\.weights \[.*\], score\.unitMs \d+[hdw]$/);
    const text = JSON.stringify(sweepFoldsChart("demo", analysis));
    expect(text).toContain('"text":{"field":"settings"');
  });

  it("name the point chosen on every ask by its settings in the heatmap", () => {
    const subtitle = JSON.stringify((sweepHeatmapChart("demo", analysis) as { title: unknown }).title);
    expect(subtitle).toContain(settingsOf(results.sweep!.selection.chosen));
    expect(subtitle).not.toContain(`(${results.sweep!.selection.chosen})`);
  });

  it("say when the heatmap's cells cross relevance backends", () => {
    const crossed = structuredClone(results);
    const sweep = crossed.sweep!;
    sweep.parameters = ["score.relevance", "score.unitMs"];
    for (const [i, p] of sweep.points.entries()) p.values = { "score.relevance": i % 2 === 0 ? "words" : "bm25", "score.unitMs": p.values["score.unitMs"]! };
    const title = (a: typeof analysis) => JSON.stringify((sweepHeatmapChart("demo", a) as { title: unknown }).title);
    expect(title(analyseSweep(crossed, 7)!)).toContain("differ by the backend");
    expect(title(analysis)).not.toContain("backend");
  });
});
