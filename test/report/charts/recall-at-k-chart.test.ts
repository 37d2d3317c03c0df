import { describe, expect, it } from "vitest";
import { recallAtKChart } from "../../../src/report/charts/recall-at-k-chart.js";
import { renderChart } from "../../../src/report/charts/render.js";
import { BASELINE_COLOR } from "../../../src/report/charts/theme.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";
import { specValues } from "./spec-data.js";


describe("recallAtKChart", () => {
  const summary = handMadeSummary(handMadeResults());
  const spec = recallAtKChart(summary)!;
  const values = specValues(spec);

  it("draws each ablation's recall at every k the summary has, with its interval", () => {
    const ofNoDecay = values.filter((v) => v.panel === "no-decay" && v.series === "no-decay");
    expect(ofNoDecay.map((v) => v.x)).toEqual([1, 3]);
    const row = summary.rows.find((r) => r.metric === "recall_any@3" && r.ablation === "no-decay" && r.group === "all")!;
    expect(ofNoDecay[1]).toMatchObject({ mean: row.value.mean, lo: row.value.lo, hi: row.value.hi, asks: row.value.nItems });
  });

  it("gives each ablation a panel with the baseline's curve drawn in it", () => {
    expect([...new Set(values.map((v) => v.panel))]).toEqual(["relevance-only", "no-decay"]);
    for (const panel of ["relevance-only", "no-decay"]) {
      expect(new Set(values.filter((v) => v.panel === panel).map((v) => v.series))).toEqual(new Set(["full", panel]));
    }
  });

  it("uses recall over every ask, not a category's", () => {
    const full = values.filter((v) => v.panel === "no-decay" && v.series === "full");
    const row = summary.rows.find((r) => r.metric === "recall_any@1" && r.ablation === "full" && r.group === "all")!;
    expect(full[0]!.mean).toBe(row.value.mean);
    expect(full).toHaveLength(2);
  });

  it("is not drawn with a single k: a point is no curve", () => {
    expect(recallAtKChart({ ...summary, metrics: summary.metrics.filter((m) => m !== "recall_any@3") })).toBeNull();
  });

  it("draws the baseline's line and points in near-black", async () => {
    const { svg, warnings } = await renderChart(spec);
    expect(warnings).toEqual([]);
    const marks = (series: string) => svg.match(new RegExp(`<path aria-label="[^"]*ablation: ${series};[^"]*" role="graphics-symbol"[^>]*>`, "g")) ?? [];
    // Two panels, each with the baseline's line and its two points.
    expect(marks("full")).toHaveLength(6);
    for (const mark of marks("full")) expect(mark).toMatch(new RegExp(`(fill|stroke)="${BASELINE_COLOR}"`));
    for (const mark of marks("no-decay")) expect(mark).not.toContain(BASELINE_COLOR);
  });
});
