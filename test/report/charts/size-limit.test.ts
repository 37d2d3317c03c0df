import { describe, expect, it } from "vitest";
import type { TopLevelSpec } from "vega-lite";
import { renderChart } from "../../../src/report/charts/render.js";
import { MAX_PNG_HEIGHT, MAX_PNG_WIDTH, oversizedCharts, pngSize } from "../../../src/report/charts/size-limit.js";

/** A bar chart of a given SVG size: its PNG is twice as large. */
function chartOfSize(width: number, height: number): TopLevelSpec {
  return {
    data: { values: [{ a: "x", b: 1 }] },
    mark: "bar",
    width,
    height,
    encoding: { x: { field: "a", type: "nominal" }, y: { field: "b", type: "quantitative" } },
  } as TopLevelSpec;
}

describe("oversizedCharts", () => {
  it("names a rendered chart taller than 2,400 px and one wider than 2,000 px, with their sizes", async () => {
    const tall = (await renderChart(chartOfSize(300, 1300))).png;
    const wide = (await renderChart(chartOfSize(1100, 200))).png;
    const fine = (await renderChart(chartOfSize(400, 300))).png;
    expect(pngSize(tall)!.height).toBeGreaterThan(MAX_PNG_HEIGHT);
    expect(pngSize(wide)!.width).toBeGreaterThan(MAX_PNG_WIDTH);
    const problems = oversizedCharts([
      { path: "reports/charts/core/tall.png", content: tall },
      { path: "reports/charts/core/wide.png", content: wide },
      { path: "reports/charts/core/fine.png", content: fine },
    ]);
    expect(problems).toHaveLength(2);
    const { width, height } = pngSize(tall)!;
    expect(problems[0]).toBe(
      `reports/charts/core/tall.png is ${width.toLocaleString("en-US")} × ${height.toLocaleString("en-US")} px, larger than a chart may be (2,000 × 2,400 px): fewer ablations per chart, or a chart that draws them more compactly`,
    );
    expect(problems[1]).toMatch(/^reports\/charts\/core\/wide\.png is 2,\d{3} × \d+ px, larger than a chart may be/);
  });

  it("ignores files that are not PNGs", () => {
    expect(oversizedCharts([{ path: "reports/charts/core/metrics.svg", content: "<svg width='5000'/>" }, { path: "x.png", content: Buffer.from("not a png") }])).toEqual([]);
  });
});
