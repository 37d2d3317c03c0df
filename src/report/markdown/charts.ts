import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { experimentCharts } from "../charts/experiment-charts.js";
import { chartPath, type ChartName } from "../paths.js";
import { linkDestination } from "./escape.js";

const CAPTIONS: Record<ChartName, string> = {
  forest: "Each ablation's difference from the baseline on the headline metrics, with 95% intervals, coloured by verdict",
  metrics: "Metric means with 95% intervals per ablation",
  "recall-at-k": "Recall at each k per ablation, over the baseline, with 95% intervals",
  categories: "The first headline metric per ask category, with 95% intervals",
  "evidence-age": "Recall by the age of the evidence when asked, with 95% intervals",
  cost: "The first headline metric against the tokens and the latency of retrieval",
  "rank-change": "Gold memory ranks under the baseline and each ablation",
  breakdown: "Score breakdown of gold memories",
  "sweep-heatmap": "The sweep's objective over two parameters, the others at the chosen point's values",
  "sweep-folds": "The settings each cross-validation fold chose, with their held-out score",
  "sweep-optimism": "Training against held-out score per fold",
};

/** The short names of the charts a compact list links to. */
const LABELS: Record<ChartName, string> = {
  forest: "differences",
  metrics: "means",
  "recall-at-k": "recall@k",
  categories: "by category",
  "evidence-age": "by evidence age",
  cost: "cost",
  "rank-change": "rank changes",
  breakdown: "score breakdown",
  "sweep-heatmap": "sweep heatmap",
  "sweep-folds": "folds' choices",
  "sweep-optimism": "optimism",
};

/**
 * Links to the charts the chart reporter renders for this experiment, and to no other: every one
 * shown, or (`first`) the first shown, as it answers the experiment's question, and the others
 * linked by name in one line, which keeps EVALUATION.md short.
 */
export function renderCharts(results: ExperimentResults, summary: ExperimentSummary, show: "all" | "first" = "all"): string {
  const charts = experimentCharts(results, summary).map((chart) => chart.name);
  if (charts.length === 0) return "";
  const link = (chart: ChartName) => linkDestination(chartPath(results.experiment.name, chart));
  const image = (chart: ChartName) => `![${CAPTIONS[chart]}](${link(chart)})`;
  if (show === "all" || charts.length === 1) return ["### Charts", ...charts.map(image)].join("\n\n");
  const rest = charts.slice(1).map((chart) => `[${LABELS[chart]}](${link(chart)})`);
  return ["### Charts", image(charts[0]!), `More charts: ${rest.join(", ")}.`].join("\n\n");
}
