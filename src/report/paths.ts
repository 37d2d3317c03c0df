/**
 * Where generated files live, relative to the repository root. The markdown reporters link to
 * the charts that the chart reporter renders, so both take the paths from here.
 */

export const CHART_NAMES = [
  "forest",
  "metrics",
  "recall-at-k",
  "categories",
  "evidence-age",
  "cost",
  "rank-change",
  "breakdown",
  "sweep-heatmap",
  "sweep-folds",
  "sweep-optimism",
] as const;
export type ChartName = (typeof CHART_NAMES)[number];

export const EVALUATION_PATH = "EVALUATION.md";
export const FAILURE_ANALYSIS_PATH = "FAILURE_ANALYSIS.md";

/** Every chart lives here; the folder holds nothing else, so any file the results do not produce is an orphan. */
export const CHARTS_DIR = "reports/charts";

export function chartDir(experiment: string): string {
  return `${CHARTS_DIR}/${experiment}`;
}

export function chartPath(experiment: string, chart: ChartName, extension: "png" | "svg" = "png"): string {
  return `${chartDir(experiment)}/${chart}.${extension}`;
}

export const HTML_REPORT_PATH = "reports/index.html";

/** The markdown files whose chart links the check follows (a generated one as it is rendered now). */
export const LINKING_MARKDOWN = [EVALUATION_PATH, FAILURE_ANALYSIS_PATH, "README.md", "reports/*.md"] as const;

export function resultsPath(experiment: string): string {
  return `results/${experiment}.json`;
}

export const PRESET_SUFFIX = ".preset.json";

/** The policy a sweep chose on all of an experiment's asks, as a reusable preset file. */
export function presetPath(experiment: string): string {
  return `results/${experiment}${PRESET_SUFFIX}`;
}

/** The appendix of one experiment: every metric, comparison and rank change. */
export function appendixPath(experiment: string): string {
  return `reports/${experiment}.md`;
}
