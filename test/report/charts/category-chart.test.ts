import { describe, expect, it } from "vitest";
import { categoryChart } from "../../../src/report/charts/category-chart.js";
import { renderChart } from "../../../src/report/charts/render.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";
import { specValues } from "./spec-data.js";


describe("categoryChart", () => {
  const summary = handMadeSummary(handMadeResults());
  const spec = categoryChart(summary)!;

  it("shows the first headline metric per category and ablation, with its interval and number of asks", () => {
    const values = specValues(spec);
    expect(values.map((v) => `${v.category} ${v.ablation}`)).toEqual([
      "single-hop full",
      "single-hop relevance-only",
      "single-hop no-decay",
      "temporal full",
      "temporal relevance-only",
      "temporal no-decay",
    ]);
    const row = summary.rows.find((r) => r.metric === "recall_any@1" && r.group === "temporal" && r.ablation === "relevance-only")!;
    expect(values.find((v) => v.category === "temporal" && v.ablation === "relevance-only")).toMatchObject({
      mean: row.value.mean,
      lo: row.value.lo,
      hi: row.value.hi,
      asks: row.value.nItems,
    });
  });

  it("is not drawn when the asks have no categories", () => {
    expect(categoryChart({ ...summary, groups: ["all"] })).toBeNull();
  });

  it("renders a panel per category without warnings", async () => {
    const { svg, warnings } = await renderChart(spec);
    expect(warnings).toEqual([]);
    expect(svg).toContain(">single-hop<");
    expect(svg).toContain(">temporal<");
  });
});
