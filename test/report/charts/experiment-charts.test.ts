import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { BREAKDOWN_ROWS_PER_ABLATION, breakdownRows, breakdownRowsPerAblation } from "../../../src/report/charts/breakdown-chart.js";
import { experimentCharts } from "../../../src/report/charts/experiment-charts.js";
import { keyMetrics } from "../../../src/report/charts/metrics-chart.js";
import { type RenderedChart, renderChart } from "../../../src/report/charts/render.js";
import { ABLATION_COLORS, BASELINE_COLOR, ablationColor } from "../../../src/report/charts/theme.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";

interface WithData {
  data?: { values: Record<string, unknown>[] };
  vconcat?: WithData[];
}

/** The inline data of a chart spec, gathered from its parts when it concatenates several. */
function dataOf(spec: unknown): Record<string, unknown>[] {
  const { data, vconcat } = spec as WithData;
  return [...(data?.values ?? []), ...(vconcat ?? []).flatMap(dataOf)];
}

describe("experimentCharts", () => {
  const results = handMadeResults();
  const summary = handMadeSummary(results);
  /** Every chart of the hand-made experiment, drawn once for the tests that look at the drawings. */
  let drawings: Promise<{ name: string; rendered: RenderedChart }[]> | undefined;
  const drawn = () =>
    (drawings ??= (async () => {
      const all: { name: string; rendered: RenderedChart }[] = [];
      for (const chart of experimentCharts(results, summary)) all.push({ name: chart.name, rendered: await renderChart(chart.spec) });
      return all;
    })());

  it("draws the forest plot first, then the other charts in report order, for an experiment with categories, evidence ages and rank changes", () => {
    expect(experimentCharts(results, summary).map((c) => c.name)).toEqual([
      "forest",
      "metrics",
      "recall-at-k",
      "categories",
      "evidence-age",
      "cost",
      "rank-change",
      "breakdown",
    ]);
  });

  it("renders every chart without a Vega or Vega-Lite warning, in the chart font, on white", async () => {
    for (const { name, rendered } of await drawn()) {
      expect(rendered.warnings, name).toEqual([]);
      expect(rendered.svg).toContain('font-family="DejaVu Sans');
      expect(rendered.svg).toMatch(/^<svg[^>]*>\s*<rect[^>]*fill="white"/);
      expect(rendered.png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }
  });

  it("gives each chart a title and axis titles", async () => {
    for (const { name, rendered } of await drawn()) {
      expect(rendered.svg, name).toContain("timeline-demo:");
      expect(rendered.svg, name).toContain('class="mark-text role-axis-title"');
    }
  });

  it("skips the rank-change and breakdown charts when no gold memory moved", () => {
    const names = experimentCharts(results, { ...summary, rankChanges: [] }).map((c) => c.name);
    expect(names).toEqual(["forest", "metrics", "recall-at-k", "categories", "evidence-age", "cost"]);
  });

  it("no longer draws recall over time: the evidence-age chart answers its question", () => {
    expect(experimentCharts(results, summary).map((c) => c.name as string)).not.toContain("recall-over-time");
  });

  it("refuses a summary of another experiment", () => {
    expect(() => experimentCharts(results, { ...summary, experiment: "other" })).toThrow(/other/);
  });

  it("plots the summary's means and intervals for the key metrics, with the ranx letters on the axis", () => {
    const metrics = experimentCharts(results, summary).find((c) => c.name === "metrics")!;
    const values = dataOf(metrics.spec);
    expect(new Set(values.map((v) => v.metric))).toEqual(new Set(["recall_any@1", "mrr", "coverage", "leakage"]));
    const row = summary.rows.find((r) => r.metric === "mrr" && r.ablation === "no-decay" && r.group === "all")!;
    const plotted = values.find((v) => v.metric === "mrr" && v.ablation === "no-decay")!;
    expect(plotted).toMatchObject({ mean: row.value.mean, lo: row.value.lo, hi: row.value.hi, label: "c · no-decay" });
    expect(values.find((v) => v.ablation === "full")!.label).toBe("a · full (baseline)");
    expect(values.find((v) => v.metric === "recall_any@1" && v.ablation === "full")!.beats).toBe("> b");
  });

  it("leaves out a panel whose metric is the same for every ablation, and says so", () => {
    const flat = {
      ...summary,
      rows: summary.rows.map((r) => (r.metric === "leakage" ? { ...r, value: { ...r.value, mean: 0, lo: 0, hi: 0 } } : r)),
    };
    const chart = experimentCharts(results, flat).find((c) => c.name === "metrics")!;
    expect(new Set(dataOf(chart.spec).map((v) => v.metric))).toEqual(new Set(["recall_any@1", "mrr", "coverage"]));
    expect(JSON.stringify((chart.spec as { title: unknown }).title)).toContain("leakage is 0.000 for every ablation (no panel)");
  });

  it("draws the baseline in the neutral colour and the ablations in Tableau 10 order", async () => {
    expect(ablationColor(["full", "relevance-only", "no-decay"], "full")).toEqual({
      domain: ["full", "relevance-only", "no-decay"],
      range: [BASELINE_COLOR, ABLATION_COLORS[0], ABLATION_COLORS[1]],
    });
    expect(ablationColor(["a", "base", "b"], "base").range).toEqual([ABLATION_COLORS[0], BASELINE_COLOR, ABLATION_COLORS[1]]);
    const { svg } = (await drawn()).find((c) => c.name === "metrics")!.rendered;
    const baselinePoints = svg.match(/<path aria-label="[^"]*label: a · full \(baseline\);[^"]*" role="graphics-symbol" aria-roledescription="point"[^>]*>/g)!;
    expect(baselinePoints.length).toBeGreaterThan(0);
    for (const point of baselinePoints) expect(point).toContain(`fill="${BASELINE_COLOR}"`);
  });

  it("gives each breakdown panel its own x axis, so one ablation's scores cannot flatten another's", () => {
    const chart = experimentCharts(results, summary).find((c) => c.name === "breakdown")!;
    const spec = chart.spec as { resolve: { scale: { x: string } }; concat: { layer: { encoding: { x?: { scale?: { domain: number[] } } } }[] }[] };
    expect(spec.resolve.scale.x).toBe("independent");
    const domains = spec.concat.map((panel) => panel.layer[0]!.encoding.x!.scale!.domain[1]);
    expect(new Set(domains).size).toBe(domains.length);
  });

  it("picks recall at the smallest k among the key metrics", () => {
    expect(keyMetrics(["recall_any@10", "recall_any@3", "mrr", "tokens"])).toEqual(["recall_any@3", "mrr"]);
  });

  it("limits the breakdown to the largest moves per ablation, falling out of the ranking first", () => {
    const many = {
      ...summary,
      rankChanges: Array.from({ length: 10 }, (_, i) => ({
        ...summary.rankChanges[0]!,
        ablation: "no-decay",
        ask: `q${i}`,
        baselineRank: 1,
        ablationRank: i === 7 ? null : 2 + i,
      })),
    };
    const rows = breakdownRows(many);
    expect(rows).toHaveLength(BREAKDOWN_ROWS_PER_ABLATION);
    expect(breakdownRowsPerAblation(1)).toBe(BREAKDOWN_ROWS_PER_ABLATION);
    expect(rows[0]!.ask).toBe("q7");
    expect(rows[1]!.ask).toBe("q9");
  });

  it("shows fewer moves per ablation when many ablations moved, so the chart stays within its height, but at least one", () => {
    expect(breakdownRowsPerAblation(16)).toBeLessThan(BREAKDOWN_ROWS_PER_ABLATION);
    expect(breakdownRowsPerAblation(16)).toBeGreaterThanOrEqual(1);
    expect(breakdownRowsPerAblation(100)).toBe(1);
  });

  it("leaves out a system with no score breakdown of its own (it ranks by something else)", () => {
    const change = { ...summary.rankChanges[0]!, baselineRank: 1, ablationRank: 5 };
    const withSystem = {
      ...summary,
      rankChanges: [
        { ...change, ablation: "no-decay" },
        { ...change, ablation: "recent-window", variant: null },
      ],
    };
    expect(breakdownRows(withSystem).map((r) => r.ablation)).toEqual(["no-decay"]);
  });
});

describe("experimentCharts with the real statistics", () => {
  it("renders the summary that summarise() makes of the same results without warnings", async () => {
    const results = handMadeResults();
    const summary = summarise(results, { seed: 7 });
    const charts = experimentCharts(results, summary);
    expect(charts.map((c) => c.name)).toContain("metrics");
    for (const chart of charts) expect((await renderChart(chart.spec)).warnings, chart.name).toEqual([]);
  });
});
