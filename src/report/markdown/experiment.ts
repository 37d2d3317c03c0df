import type { ReportContext } from "../reporter.js";
import { appendixPath, resultsPath } from "../paths.js";
import { ALL_GROUP } from "../../harness/summary/summarise.js";
import { renderCharts } from "./charts.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import { formatCount } from "./format.js";
import { designedFailuresSection } from "./designed-failures.js";
import { renderSweepFamily, sweepSection } from "./sweep.js";
import type { ExperimentSectionProvider, ExperimentView } from "./section-providers.js";
import { renderCategoryTable, renderHeadlineTable } from "./summary-tables.js";

export interface ExperimentRenderOptions {
  /** Extra sections appended to the experiment, in order. */
  sections?: readonly ExperimentSectionProvider[];
}

/** What each ask protocol means, as a heading and the findings say it. */
export const PROTOCOL_WORDS = {
  end: "questions asked after the last session",
  online: "each question asked at a seeded random time between its newest evidence and the last session",
  immediate: "each question asked right after the session holding its newest evidence",
} as const;

export function renderExperimentIntro(views: readonly ExperimentView[]): string {
  const { experiment } = views[0].results;
  const asks = experiment.scenarios.reduce((sum, s) => sum + s.asks.length, 0);
  const runs =
    views.length === 1
      ? `Every metric, every comparison, what each ablation changes, cost (tokens, budget, latency), the scenarios, the manifest and the rank changes: ${code(appendixPath(experiment.name))}.`
      : `It runs once per ask protocol, each run with results and an appendix of its own (every metric and comparison, what each ablation changes, cost): ` +
        views
          .map(({ results }) => `${code(results.experiment.protocol ?? "end")} (${code(resultsPath(results.experiment.name))}, ${code(appendixPath(results.experiment.name))})`)
          .join(", ") +
        ".";
  return [
    `## ${escapeMarkdown(experiment.family)}`,
    escapeProse(experiment.description.trim()),
    `Experiment file: ${code(experiment.file)}. Baseline: ${code(experiment.baseline)}. ` +
      `${formatCount(experiment.scenarios.length)} scenario(s), ${formatCount(asks)} ask(s), seeds ${experiment.seeds.join(", ")}, k ${experiment.k.join(", ")}. ` +
      `${importanceSentence(experiment.importance)} ${runs}`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** Which importance ratings are real: rated memories and their noise, unrated ones at the midpoint. */
export function importanceSentence(importance: ExperimentView["results"]["experiment"]["importance"]): string {
  const { rated, unrated, noise, unratedNoise } = importance;
  const plural = (n: number) => `${formatCount(n)} ${n === 1 ? "memory" : "memories"}`;
  const moved = (n: number) => (n === 0 ? "no seed noise" : `each seed moving it by up to ±${n}`);
  const parts = [];
  if (rated > 0) parts.push(`${plural(rated)} rated in ${rated === 1 ? "its" : "their"} scenario (${moved(noise)})`);
  if (unrated > 0) parts.push(`${plural(unrated)} unrated, at the midpoint 5 (${moved(unratedNoise)})`);
  return `Importance: ${parts.join("; ")}.`;
}

/**
 * The results of one run: headline metrics, the same by category, designed failures and charts.
 * `heading` is the level of their headings, and `label` tells the runs of one experiment apart.
 */
function renderRun(context: ReportContext, view: ExperimentView, heading: string, label: string, byCategory: boolean): string[] {
  const { results, summary } = view;
  const categories = summary.groups.filter((g) => g !== ALL_GROUP);
  // Cost (tokens, budget, latency) is in the appendix and the quality-against-cost chart.
  const parts = [`${heading} Headline results${label}\n\n${renderHeadlineTable(summary)}`];
  if (categories.length > 0 && !byCategory) {
    parts.push(`Means, intervals and tests per category: ${code(appendixPath(results.experiment.name))}.`);
  } else if (categories.length > 0) {
    parts.push(
      `${heading} By category${label}`,
      // The first headline metric only: EVALUATION.md stays short, and the appendix has them all.
      `Means of ${code(summary.headline[0])} per category; ✓ marks a significant difference from ${code(summary.baseline)} within that category's family (adjusted by Holm, or by Westfall–Young where the exact test decided the whole family). ` +
        `Every metric per category, with intervals and tests, is in ${code(appendixPath(results.experiment.name))}.`,
      renderCategoryTable(summary, summary.headline[0]),
    );
  }
  parts.push(
    designedFailuresSection(context, view).replace(/^### (.*)$/m, `${heading} $1${label}`),
    sweepSection(context, view).replace(/^### (.*)$/m, `${heading} $1${label}`),
    renderCharts(results, summary, "first").replace(/^### Charts$/m, `${heading} Charts${label}`),
  );
  return parts;
}

/**
 * One experiment's section of EVALUATION.md: its headline metrics; the rest is in its appendix.
 * An experiment run under several ask protocols gets one section, its runs as subsections;
 * what the runs share (ablations, the import) is said once.
 */
export function renderExperiment(context: ReportContext, views: readonly ExperimentView[], options: ExperimentRenderOptions = {}): string {
  if (views.every((view) => view.results.sweep !== undefined)) return renderSweepFamily(views);
  const [first] = views;
  // What each ablation changes is defined in the appendices, which the intro names.
  const parts = [renderExperimentIntro(views)];
  if (views.length === 1) {
    parts.push(...renderRun(context, first, "###", "", true));
  } else {
    // Several runs: their tables by category would double the section, so they stay in the appendices.
    for (const view of views) {
      const protocol = view.results.experiment.protocol ?? "end";
      parts.push(`### Protocol ${code(protocol)}: ${PROTOCOL_WORDS[protocol]}`, ...renderRun(context, view, "####", ` (${protocol})`, false));
    }
  }
  for (const provider of options.sections ?? []) parts.push(provider(context, first, views));
  return parts.filter((part) => part.trim() !== "").map((part) => part.trim()).join("\n\n");
}
