import type { ScenarioSummaryOptions } from "../../harness/summary/by-scenario.js";
import type { ReportContext } from "../reporter.js";
import { renderCharts } from "./charts.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import { designedFailuresSection } from "./designed-failures.js";
import { renderManifest } from "./manifest.js";
import { renderRankChanges } from "./rank-changes.js";
import type { ExperimentSectionProvider, ExperimentView } from "./section-providers.js";
import { renderAblations, renderResults } from "./summary-tables.js";
import { markdownTable } from "./table.js";

export interface ExperimentRenderOptions {
  /** Options of the per-scenario summaries behind "Which ablation loses where". */
  scenarioSummaries?: ScenarioSummaryOptions;
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
      `Seeds: ${experiment.seeds.join(", ")}. k: ${experiment.k.join(", ")}. ` +
      `Each mean is over ${asks * experiment.seeds.length} (scenario, ask, seed) pairs: ` +
      `${experiment.scenarios.length} scenario(s), ${asks} ask(s), ${experiment.seeds.length} seed(s).`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

export function renderScenarios({ results }: ExperimentView): string {
  return [
    "### Scenarios",
    markdownTable(
      ["Scenario", { header: "Asks", align: "right" }, "Description"],
      results.experiment.scenarios.map((s) => [code(s.name), String(s.asks.length), escapeProse(s.description)]),
    ),
  ].join("\n\n");
}

/** One experiment's whole section of EVALUATION.md. */
export function renderExperiment(context: ReportContext, view: ExperimentView, options: ExperimentRenderOptions = {}): string {
  const { results, summary } = view;
  const parts = [
    renderExperimentIntro(view),
    `### Ablations\n\n${renderAblations(results, summary)}`,
    renderScenarios(view),
    renderManifest(results),
    renderResults(summary),
    designedFailuresSection(context, view),
    renderRankChanges(results, summary),
    renderCharts(summary.experiment),
  ];
  for (const provider of options.sections ?? []) parts.push(provider(context, view));
  return parts.filter((part) => part.trim() !== "").map((part) => part.trim()).join("\n\n");
}
