import { describe, expect, it } from "vitest";
import { readResults } from "../../../src/harness/results/io.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import type { ExperimentSummary } from "../../../src/harness/summary/types.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { experimentCharts } from "../../../src/report/charts/experiment-charts.js";
import { renderChart } from "../../../src/report/charts/render.js";
import { MAX_PNG_HEIGHT, MAX_PNG_WIDTH, oversizedCharts } from "../../../src/report/charts/size-limit.js";
import { MAX_CHART_WIDTH } from "../../../src/report/charts/theme.js";
import { repoPath } from "../../harness/temp-files.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";
import { withSweep } from "../../fixtures/sweep-results.js";
import { bounds, overlappingTexts, pngSize, svgGeometry, textsIn, type SvgGeometry } from "./svg-geometry.js";

/** Smallest text, in SVG pixels; a PNG shown 1,000 px wide draws it at least this large. */
const MIN_FONT_SIZE = 10;
const MAX_COLUMNS = 4;

/**
 * The hand-made experiment with fourteen ablations with long names, every one of which beats
 * every other on every metric: the most letters, the longest labels and the most panels a chart
 * has to place.
 */
function crowded(): { results: ExperimentResults; summary: ExperimentSummary } {
  const results = handMadeResults();
  const extra = Array.from({ length: 11 }, (_, i) => `no-decay-variant-with-a-long-name-${i + 1}`);
  for (const name of extra) {
    const source = results.experiment.ablations.find((a) => a.name === "no-decay")!;
    results.experiment.ablations.push({ ...structuredClone(source), name });
    for (const trial of results.trials.filter((t) => t.ablation === "no-decay")) {
      results.trials.push({ ...structuredClone(trial), ablation: name });
    }
  }
  const base = handMadeSummary(handMadeResults());
  const ablations = results.experiment.ablations.map((a) => a.name);
  const letters = ablations.map((_, i) => String.fromCharCode(97 + i));
  const rows = ablations.flatMap((ablation, i) =>
    base.rows
      .filter((r) => r.ablation === (i < 3 ? ablation : "no-decay"))
      .map((r) => ({ ...r, ablation, letter: letters[i]!, beats: letters.filter((_, j) => j !== i) })),
  );
  const rankChanges = [
    ...base.rankChanges,
    ...extra.flatMap((name) => base.rankChanges.filter((c) => c.ablation === "no-decay").map((c) => ({ ...c, ablation: name }))),
  ];
  return { results, summary: { ...base, ablations, rows, rankChanges } };
}

function recorded(name: string): { results: ExperimentResults; summary: ExperimentSummary } {
  const results = readResults(repoPath(`results/${name}.json`))!;
  return { results, summary: summarise(results, { seed: 20240501, bootstrapResamples: 200, testResamples: 500 }) };
}

const experiments: [string, () => { results: ExperimentResults; summary: ExperimentSummary }][] = [
  ["the hand-made experiment", () => ({ results: handMadeResults(), summary: handMadeSummary(handMadeResults()) })],
  ["fourteen ablations with long names, each beating all others", crowded],
  ["the recorded core experiment", () => recorded("core")],
  ["the hand-made experiment with a sweep", () => ({ results: withSweep(), summary: handMadeSummary(handMadeResults()) })],
];

/** Panel titles grouped by the row they sit on: a row of more than MAX_COLUMNS did not wrap. */
function titleRows(geometry: SvgGeometry): number[] {
  const rows = new Map<number, number>();
  for (const title of textsIn(geometry, "role-title-text")) {
    const top = Math.round(bounds(title).top);
    rows.set(top, (rows.get(top) ?? 0) + 1);
  }
  return [...rows.values()];
}

describe.each(experiments)("the charts of %s", (_, make) => {
  const rendered = (async () => {
    const { results, summary } = make();
    const charts = experimentCharts(results, summary);
    return Promise.all(charts.map(async (chart) => ({ name: chart.name, ...(await renderChart(chart.spec)) })));
  })();

  it("are at most 2,000 px wide as PNG, from SVGs at most 1,000 px wide", async () => {
    for (const chart of await rendered) {
      const svg = svgGeometry(chart.svg);
      expect(svg.width, chart.name).toBeLessThanOrEqual(MAX_CHART_WIDTH);
      expect(pngSize(chart.png).width, chart.name).toBeLessThanOrEqual(MAX_PNG_WIDTH);
      expect(pngSize(chart.png).width, chart.name).toBe(2 * svg.width);
    }
  });

  it("are at most 2,400 px tall as PNG, so the check passes them", async () => {
    for (const chart of await rendered) {
      expect(pngSize(chart.png).height, chart.name).toBeLessThanOrEqual(MAX_PNG_HEIGHT);
      expect(oversizedCharts([{ path: `${chart.name}.png`, content: chart.png }]), chart.name).toEqual([]);
    }
  });

  it("stay legible at 1,000 px: no text smaller than 10 px at that width", async () => {
    for (const chart of await rendered) {
      const svg = svgGeometry(chart.svg);
      const shownAt1000 = 1000 / svg.width;
      for (const text of svg.texts) expect(text.fontSize * shownAt1000, `${chart.name}: "${text.text}"`).toBeGreaterThanOrEqual(MIN_FONT_SIZE);
    }
  });

  it("never draw one text over another, significance letters included", async () => {
    for (const chart of await rendered) {
      const svg = svgGeometry(chart.svg);
      expect(svg.texts.length, chart.name).toBeGreaterThan(0);
      expect(overlappingTexts(svg), chart.name).toEqual([]);
    }
  });

  it("keep every text on the canvas", async () => {
    for (const chart of await rendered) {
      const svg = svgGeometry(chart.svg);
      for (const text of svg.texts) {
        const box = bounds(text);
        expect(box.left >= 0 && box.top >= 0 && box.right <= svg.width && box.bottom <= svg.height, `${chart.name}: "${text.text}"`).toBe(true);
      }
    }
  });

  it("wrap their panels at four columns at most", async () => {
    for (const chart of await rendered) {
      for (const count of titleRows(svgGeometry(chart.svg))) expect(count, chart.name).toBeLessThanOrEqual(MAX_COLUMNS);
    }
  });

  it("put their legends at the top, above every axis", async () => {
    for (const chart of await rendered) {
      const svg = svgGeometry(chart.svg);
      const legend = textsIn(svg, "role-legend");
      if (legend.length === 0) continue;
      const lowestLegend = Math.max(...legend.map((t) => bounds(t).bottom));
      const highestAxis = Math.min(...textsIn(svg, "role-axis").map((t) => bounds(t).top));
      expect(lowestLegend, chart.name).toBeLessThan(highestAxis);
    }
  });
});

describe("the significance letters of the metrics chart", () => {
  it("are all drawn, one row per ablation, even when every ablation beats every other", async () => {
    const { results, summary } = crowded();
    const chart = experimentCharts(results, summary).find((c) => c.name === "metrics")!;
    const svg = svgGeometry((await renderChart(chart.spec)).svg);
    const letters = svg.texts.filter((t) => t.text.startsWith("> "));
    // One per ablation and metric panel.
    const panels = textsIn(svg, "role-title-text").length - 1;
    expect(letters).toHaveLength(summary.ablations.length * panels);
    expect(letters.some((t) => t.text === "> bcdefghijklmn")).toBe(true);
    expect(overlappingTexts({ ...svg, texts: letters })).toEqual([]);
  });
});

describe("the charts of a sweep", () => {
  it("are the heatmap, the choice per fold and the optimism per fold, drawn only for an experiment that sweeps", () => {
    const names = (results: ExperimentResults) => experimentCharts(results, handMadeSummary(handMadeResults())).map((c) => c.name);
    expect(names(withSweep()).filter((n) => n.startsWith("sweep-"))).toEqual(["sweep-heatmap", "sweep-folds", "sweep-optimism"]);
    expect(names(handMadeResults()).filter((n) => n.startsWith("sweep-"))).toEqual([]);
  });
});
