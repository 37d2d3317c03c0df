import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { evidenceAgeRows } from "../../../src/harness/summary/evidence-age.js";
import { evidenceAgeChart } from "../../../src/report/charts/evidence-age-chart.js";
import { renderChart } from "../../../src/report/charts/render.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";
import { specValues } from "./spec-data.js";


describe("evidenceAgeChart", () => {
  const results = handMadeResults();
  const summary = handMadeSummary(results);
  const spec = evidenceAgeChart(results, summary, 7)!;

  it("draws the headline recall per age bin for each ablation over the baseline, with the rows' intervals", () => {
    const values = specValues(spec);
    const rows = evidenceAgeRows(results, "recall_any@1", { seed: 7 });
    const own = values.filter((v) => v.panel === "relevance-only" && v.series === "relevance-only");
    expect(own.map((v) => v.x)).toEqual(["< 1 day", "1–7 days"]);
    const row = rows.find((r) => r.ablation === "relevance-only" && r.bin === "1–7 days")!;
    expect(own[1]).toMatchObject({ mean: row.value.mean, lo: row.value.lo, hi: row.value.hi, asks: row.value.nItems });
    expect(new Set(values.filter((v) => v.panel === "relevance-only").map((v) => v.series))).toEqual(new Set(["full", "relevance-only"]));
  });

  it("is not drawn when every ask's evidence is of one age bin, or the results do not say when it was written", () => {
    const oneAge: ExperimentResults = structuredClone(results);
    for (const s of oneAge.experiment.scenarios) for (const a of s.asks) a.expectHours = [a.hour];
    expect(evidenceAgeChart(oneAge, summary, 7)).toBeNull();
    const untimed: ExperimentResults = structuredClone(results);
    for (const s of untimed.experiment.scenarios) for (const a of s.asks) delete a.expectHours;
    expect(evidenceAgeChart(untimed, summary, 7)).toBeNull();
  });

  it("renders without warnings", async () => {
    expect((await renderChart(spec)).warnings).toEqual([]);
  });
});
