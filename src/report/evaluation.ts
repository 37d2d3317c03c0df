import { renderExperiment } from "./markdown/experiment.js";
import { renderFindings } from "./markdown/findings.js";
import type { ExperimentSectionProvider, ExperimentView, SectionProvider } from "./markdown/section-providers.js";
import { compareText, renderSetup, renderTitle } from "./markdown/setup.js";
import { EVALUATION_PATH } from "./paths.js";
import type { OutputFile, ReportContext, Reporter } from "./reporter.js";

export interface EvaluationReporterOptions {
  /** Sections appended after the experiments, in order. */
  sections?: readonly SectionProvider[];
  /** Sections appended to each experiment, in order. */
  experimentSections?: readonly ExperimentSectionProvider[];
}

/** Pairs each experiment's results with its summary, sorted by experiment name. */
export function experimentViews(context: ReportContext): ExperimentView[] {
  return [...context.results]
    .sort((a, b) => compareText(a.experiment.name, b.experiment.name))
    .map((results) => {
      const summary = context.summaries.find((s) => s.experiment === results.experiment.name);
      if (summary === undefined) throw new Error(`no summary was computed for experiment "${results.experiment.name}"`);
      return { results, summary };
    });
}

/** Views grouped by experiment file (its runs, one per ask protocol), in the order of their first run. */
export function experimentFamilies(views: readonly ExperimentView[]): ExperimentView[][] {
  const families = new Map<string, ExperimentView[]>();
  for (const view of views) {
    const family = view.results.experiment.family;
    families.set(family, [...(families.get(family) ?? []), view]);
  }
  return [...families.values()];
}

/** The whole of EVALUATION.md, ending in one newline: findings first, then how they were made, then each experiment. */
export function renderEvaluation(context: ReportContext, options: EvaluationReporterOptions = {}): string {
  const parts = [
    renderTitle(),
    renderFindings(context.findings ?? []),
    renderSetup(context),
    ...experimentFamilies(experimentViews(context)).map((runs) => renderExperiment(context, runs, { sections: options.experimentSections })),
    ...(options.sections ?? []).map((provider) => provider(context)),
  ];
  return `${parts.map((part) => part.trim()).filter((part) => part !== "").join("\n\n")}\n`;
}

export function createEvaluationReporter(options: EvaluationReporterOptions = {}): Reporter {
  return {
    name: "evaluation",
    async render(context: ReportContext): Promise<OutputFile[]> {
      return [{ path: EVALUATION_PATH, content: renderEvaluation(context, options) }];
    },
  };
}
