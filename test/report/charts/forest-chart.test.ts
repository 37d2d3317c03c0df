import { describe, expect, it } from "vitest";
import { comparisonVerdict } from "../../../src/harness/summary/summarise.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import type { ExperimentSummary } from "../../../src/harness/summary/types.js";
import { crossingNote, forestChart } from "../../../src/report/charts/forest-chart.js";
import { renderChart } from "../../../src/report/charts/render.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";
import { specValues } from "./spec-data.js";


describe("forestChart", () => {
  const results = handMadeResults();
  const summary = handMadeSummary(results);
  const spec = forestChart(summary, results.experiment)!;
  const values = specValues(spec);

  it("has one row per ablation and headline metric: its difference from the baseline with its interval", () => {
    expect(values.map((v) => `${v.metric} ${v.ablation}`)).toEqual([
      "recall_any@1 relevance-only",
      "recall_any@1 no-decay",
      "coverage relevance-only",
      "coverage no-decay",
    ]);
    const row = summary.rows.find((r) => r.metric === "coverage" && r.ablation === "no-decay" && r.group === "all")!;
    expect(values.find((v) => v.metric === "coverage" && v.ablation === "no-decay")).toMatchObject({
      diff: row.vsBaseline!.diff.mean,
      lo: row.vsBaseline!.diff.lo,
      hi: row.vsBaseline!.diff.hi,
      p: row.vsBaseline!.p,
      pHolm: row.vsBaseline!.pHolm,
    });
  });

  it("colours each row by its verdict, in a legend of the three verdicts", () => {
    // The summary's one verdict, in the legend's words: identical rows count as not detected.
    const words = { significant: "significant after adjustment", "per-comparison": "significant per comparison only", "not-detected": "could not detect", identical: "could not detect" };
    for (const v of values) {
      const row = summary.rows.find((r) => r.metric === v.metric && r.ablation === v.ablation && r.group === "all")!;
      expect(v.verdict).toBe(words[comparisonVerdict(row.vsBaseline!) as keyof typeof words]);
    }
    const text = JSON.stringify(spec);
    expect(text).toContain('"domain":["significant after adjustment","significant per comparison only","could not detect"]');
  });

  it("names the adjustment its family's adjusted p came from, in the legend and the tooltip", () => {
    expect(JSON.stringify(spec)).toContain("significant after Holm's adjustment over the family");
    const joint = structuredClone(summary);
    for (const row of joint.rows) if (row.vsBaseline !== undefined) row.vsBaseline.adjustment = "westfall-young";
    const text = JSON.stringify(forestChart(joint, results.experiment));
    expect(text).toContain("significant after Westfall–Young's adjustment over the family");
    expect(text).toContain('"title":"p (Westfall–Young)"');
    // The field keeps its name, pHolm; no words say Holm.
    expect(text).not.toMatch(/Holm'|\(Holm\)| Holm/);
  });

  it("draws a line at zero in every panel, one panel per headline metric in the headline's order", () => {
    const s = spec as unknown as { facet: { sort: string[] }; spec: { layer: { encoding: { x: { datum?: number } } }[] } };
    expect(s.facet.sort).toEqual(["recall_any@1", "coverage"]);
    expect(s.spec.layer[0]!.encoding.x.datum).toBe(0);
  });

  it("leaves out comparisons that are not comparable, and names them", () => {
    const incomparable: ExperimentSummary = {
      ...summary,
      rows: summary.rows.map((r) =>
        r.ablation === "no-decay" && r.metric === "recall_any@1" ? { ...r, vsBaseline: { ...r.vsBaseline!, comparable: false } } : r,
      ),
    };
    const chart = forestChart(incomparable, results.experiment)!;
    expect(specValues(chart).some((v) => v.ablation === "no-decay" && v.metric === "recall_any@1")).toBe(false);
    expect(JSON.stringify((chart as { title: unknown }).title)).toContain("Not comparable on recall_any@1 (its ranks count within other sections): no-decay.");
  });

  it("marks a comparison across relevance backends, and one with a system that is not a recollect policy", () => {
    const crossed: ExperimentResults = structuredClone(results);
    const noDecay = crossed.experiment.ablations.find((a) => a.name === "no-decay")!;
    noDecay.policy = { ...noDecay.policy!, score: { ...noDecay.policy!.score, relevance: "bm25" } };
    const relevanceOnly = crossed.experiment.ablations.find((a) => a.name === "relevance-only")!;
    delete relevanceOnly.policy;
    relevanceOnly.system = { type: "baseline", baseline: "recent-window" } as never;
    expect(crossingNote(crossed.experiment, "no-decay")).toBe("bm25");
    expect(crossingNote(crossed.experiment, "relevance-only")).toBe("system");
    expect(crossingNote(results.experiment, "no-decay")).toBeNull();
    const labels = specValues(forestChart(summary, crossed.experiment)).map((v) => v.label);
    expect(labels).toContain("no-decay [bm25]");
    expect(labels).toContain("relevance-only [system]");
  });

  it("is not drawn when no headline comparison has a verdict", () => {
    expect(forestChart({ ...summary, headline: [] }, results.experiment)).toBeNull();
  });

  it("renders without warnings, the verdict legend on top", async () => {
    const { svg, warnings } = await renderChart(spec);
    expect(warnings).toEqual([]);
    expect(svg).toContain("significant per comparison only");
  });
});
