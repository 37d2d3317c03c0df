import type { ReportContext } from "../reporter.js";
import { appendixPath } from "../paths.js";
import { ALL_GROUP } from "../../harness/summary/summarise.js";
import { renderCharts } from "./charts.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import { formatCount } from "./format.js";
import { designedFailuresSection } from "./designed-failures.js";
import type { ExperimentSectionProvider, ExperimentView } from "./section-providers.js";
import { renderAblations, renderCategoryTable, renderHeadlineTable } from "./summary-tables.js";

export interface ExperimentRenderOptions {
  /** Extra sections appended to the experiment, in order. */
  sections?: readonly ExperimentSectionProvider[];
}

export function renderExperimentIntro({ results }: ExperimentView): string {
  const { experiment } = results;
  const asks = experiment.scenarios.reduce((sum, s) => sum + s.asks.length, 0);
  return [
    `## ${escapeMarkdown(experiment.name)}`,
    escapeProse(experiment.description.trim()),
    `Experiment file: ${code(experiment.file)}. Baseline: ${code(experiment.baseline)}. ` +
      `${formatCount(experiment.scenarios.length)} scenario(s), ${formatCount(asks)} ask(s), seeds ${experiment.seeds.join(", ")}, k ${experiment.k.join(", ")}. ` +
      `Every metric, every comparison, the scenarios, the manifest and the rank changes: ${code(appendixPath(experiment.name))}.`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** One experiment's section of EVALUATION.md: its headline metrics; the rest is in its appendix. */
export function renderExperiment(context: ReportContext, view: ExperimentView, options: ExperimentRenderOptions = {}): string {
  const { results, summary } = view;
  const categories = summary.groups.filter((g) => g !== ALL_GROUP);
  const parts = [
    renderExperimentIntro(view),
    `### Ablations\n\n${renderAblations(results, summary)}`,
    `### Headline results\n\n${renderHeadlineTable(summary)}`,
  ];
  if (categories.length > 0) {
    parts.push(
      "### By category",
      `Means per category; ✓ marks a significant difference from ${code(summary.baseline)} within that category's Holm family. ` +
        `Intervals and tests per category are in ${code(appendixPath(results.experiment.name))}.`,
      ...summary.headline.map((metric) => `**${code(metric)}**\n\n${renderCategoryTable(summary, metric)}`),
    );
  }
  parts.push(designedFailuresSection(context, view), renderCharts(results, summary));
  for (const provider of options.sections ?? []) parts.push(provider(context, view));
  return parts.filter((part) => part.trim() !== "").map((part) => part.trim()).join("\n\n");
}
