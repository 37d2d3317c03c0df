import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { experimentCharts } from "../charts/experiment-charts.js";
import { chartPath, type ChartName } from "../paths.js";
import { linkDestination } from "./escape.js";

const CAPTIONS: Record<ChartName, string> = {
  metrics: "Metric means with 95% intervals per ablation",
  "rank-change": "Gold memory ranks under the baseline and each ablation",
  "recall-over-time": "Recall as the timeline advances",
  breakdown: "Score breakdown of gold memories",
};

/** Links to the charts the chart reporter renders for this experiment, and to no other. */
export function renderCharts(results: ExperimentResults, summary: ExperimentSummary): string {
  const charts = experimentCharts(results, summary).map((chart) => chart.name);
  if (charts.length === 0) return "";
  return ["### Charts", ...charts.map((chart) => `![${CAPTIONS[chart]}](${linkDestination(chartPath(results.experiment.name, chart))})`)].join("\n\n");
}
