import { CHART_NAMES, chartPath, type ChartName } from "../paths.js";
import { linkDestination } from "./escape.js";

const CAPTIONS: Record<ChartName, string> = {
  metrics: "Metric means with 95% intervals per ablation",
  "rank-change": "Gold memory ranks under the baseline and each ablation",
  "recall-over-time": "Recall as the timeline advances",
  breakdown: "Score breakdown of gold memories",
};

/** Links to the PNG charts the chart reporter renders for this experiment. */
export function renderCharts(experiment: string): string {
  return [
    "### Charts",
    ...CHART_NAMES.map((chart) => `![${CAPTIONS[chart]}](${linkDestination(chartPath(experiment, chart))})`),
  ].join("\n\n");
}
