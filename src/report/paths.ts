/**
 * Where generated files live, relative to the repository root. The markdown reporters link to
 * the charts that the chart reporter renders, so both take the paths from here.
 */

export const CHART_NAMES = ["metrics", "rank-change", "recall-over-time", "breakdown"] as const;
export type ChartName = (typeof CHART_NAMES)[number];

export const EVALUATION_PATH = "EVALUATION.md";
export const FAILURE_ANALYSIS_PATH = "FAILURE_ANALYSIS.md";

export function chartPath(experiment: string, chart: ChartName, extension: "png" | "svg" = "png"): string {
  return `reports/charts/${experiment}/${chart}.${extension}`;
}

export function resultsPath(experiment: string): string {
  return `results/${experiment}.json`;
}

/** The appendix of one experiment: every metric, comparison and rank change. */
export function appendixPath(experiment: string): string {
  return `reports/${experiment}.md`;
}
