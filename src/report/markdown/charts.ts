import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { experimentCharts } from "../charts/experiment-charts.js";
import { chartPath, type ChartName } from "../paths.js";
import { linkDestination } from "./escape.js";

const CAPTIONS: Record<ChartName, string> = {
  metrics: "Metric means with 95% intervals per ablation",
  cost: "The first headline metric against the tokens and the latency of retrieval",
  "rank-change": "Gold memory ranks under the baseline and each ablation",
  "recall-over-time": "Recall as the timeline advances",
  breakdown: "Score breakdown of gold memories",
  "sweep-heatmap": "The sweep's objective over two parameters, the others at the chosen point's values",
  "sweep-folds": "The point each cross-validation fold chose, with its held-out score",
  "sweep-optimism": "Training against held-out score per fold",
};

/** Links to the charts the chart reporter renders for this experiment, and to no other. */
export function renderCharts(results: ExperimentResults, summary: ExperimentSummary): string {
  const charts = experimentCharts(results, summary).map((chart) => chart.name);
  if (charts.length === 0) return "";
  return ["### Charts", ...charts.map((chart) => `![${CAPTIONS[chart]}](${linkDestination(chartPath(results.experiment.name, chart))})`)].join("\n\n");
}
