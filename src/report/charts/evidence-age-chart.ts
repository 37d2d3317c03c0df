import type { TopLevelSpec } from "vega-lite";
import type { ExperimentResults } from "../../harness/results/types.js";
import { AGE_BINS, evidenceAgeRows } from "../../harness/summary/evidence-age.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { type CurvePoint, curvePanels } from "./curve-panels.js";
import { CHART_CONFIG } from "./theme.js";

/** The recall metric the chart shows: the headline's, else recall at the smallest k. */
function recallMetric(summary: ExperimentSummary): string | undefined {
  const recall = (m: string) => m.startsWith("recall_any@");
  return summary.headline.find(recall) ?? summary.metrics.find(recall);
}

/**
 * Recall by how old the evidence is when it is asked for, in bins from under a day to half a
 * year and more, with intervals: what a recency signal trades away shows up as a curve that
 * falls with age. Needs asks whose evidence has two ages or more to compare.
 */
export function evidenceAgeChart(results: ExperimentResults, summary: ExperimentSummary, seed: number): TopLevelSpec | null {
  const metric = recallMetric(summary);
  if (metric === undefined) return null;
  const rows = evidenceAgeRows(results, metric, { seed });
  const bins = AGE_BINS.map((b) => b.label).filter((b) => rows.some((r) => r.bin === b));
  if (bins.length < 2) return null;
  const points: CurvePoint[] = rows.map((r) => ({ ablation: r.ablation, x: r.bin, mean: r.value.mean, lo: r.value.lo, hi: r.value.hi, asks: r.value.nItems }));
  const panels = curvePanels(points, summary.ablations, summary.baseline, {
    field: "x",
    type: "ordinal",
    sort: bins,
    // The subtitle names the axis; a title under every panel would cost a row of text each.
    title: null,
    axis: { labelAngle: -35, labelLimit: 120 },
  }, metric);
  if (panels === null) return null;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: ${metric} by the age of the evidence`,
      subtitle: [
        `Up: ${metric}, mean and 95% interval over ${summary.unit.label} per bin.`,
        "Across: the age of the evidence when asked, from when the newest gold memory was written to the ask.",
        `One panel per ablation, in colour, over ${summary.baseline} (the baseline) in black; the tooltip gives each bin's number of asks.`,
      ],
    },
    config: CHART_CONFIG,
    ...panels,
  } as TopLevelSpec;
}
