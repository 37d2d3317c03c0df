import { describe, expect, it } from "vitest";
import { experimentCharts } from "../../../src/report/charts/experiment-charts.js";
import { renderCharts } from "../../../src/report/markdown/charts.js";
import { handMadeResults, handMadeSummary } from "../charts/hand-made-results.js";

describe("renderCharts", () => {
  const results = handMadeResults();
  const summary = handMadeSummary(results);
  const names = experimentCharts(results, summary).map((chart) => chart.name);

  it("shows every chart the chart reporter renders, and no other, for the appendix", () => {
    const images = [...renderCharts(results, summary).matchAll(/!\[[^\]]+\]\(reports\/charts\/timeline-demo\/([a-z-]+)\.png\)/g)].map((m) => m[1]);
    expect(images).toEqual(names);
  });

  it("shows the first chart, the forest plot, and links the others by name in one line, for EVALUATION.md", () => {
    const text = renderCharts(results, summary, "first");
    expect([...text.matchAll(/!\[/g)]).toHaveLength(1);
    expect(text).toContain("](reports/charts/timeline-demo/forest.png)");
    const linked = [...text.matchAll(/(?<!!)\[[^\]]+\]\(reports\/charts\/timeline-demo\/([a-z-]+)\.png\)/g)].map((m) => m[1]);
    expect(linked).toEqual(names.slice(1));
    expect(text).toMatch(/^More charts: \[means\]\(/m);
  });
});
