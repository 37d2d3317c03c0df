import { chartPath, type ChartName } from "../paths.js";

const CAPTIONS: Record<ChartName, string> = {
  metrics: "Metric means with 95% intervals per ablation",
  "rank-change": "Gold memory ranks under the baseline and each ablation",
  "recall-over-time": "Recall as the timeline advances",
  breakdown: "Score breakdown of gold memories",
};

/** Links to the PNG charts the chart reporter renders for this experiment; none, no section. */
export function renderCharts(experiment: string, charts: readonly ChartName[]): string {
  if (charts.length === 0) return "";
  return ["### Charts", ...charts.map((chart) => `![${CAPTIONS[chart]}](${chartPath(experiment, chart)})`)].join("\n\n");
}
