import type { ScenarioSummaryOptions } from "../harness/summary/by-scenario.js";
import { createEvaluationReporter, evaluationReporter } from "./evaluation.js";
import { createFailureAnalysisReporter, failureAnalysisReporter } from "./failure-analysis.js";
import { answersSection } from "./markdown/answers.js";
import { importSection } from "./markdown/import-table.js";
import { locomoSection } from "./markdown/locomo.js";
import { registerEvaluationSection, registerExperimentSection } from "./markdown/section-providers.js";
import { chartsReporter } from "./charts/index.js";
import { htmlReporter } from "./html/index.js";
import type { Reporter } from "./reporter.js";
import { schemasReporter } from "./schemas-reporter.js";

export {
  evaluationSections,
  experimentSections,
  registerEvaluationSection,
  registerExperimentSection,
  type ExperimentSectionProvider,
  type ExperimentView,
  type SectionProvider,
} from "./markdown/section-providers.js";

registerExperimentSection(importSection);
registerExperimentSection(locomoSection);
registerEvaluationSection(answersSection);

export interface ReporterOptions {
  /**
   * Statistics options of the per-scenario summaries the markdown reports compute themselves
   * (which ablation loses where, FAILURE_ANALYSIS.md figures). Pass the seed and resamples used
   * for the experiment summaries, so both come from the same settings.
   */
  scenarioSummaries?: ScenarioSummaryOptions;
  /** Include the project's own files (FAILURE_ANALYSIS.md, the JSON Schemas); default true. */
  project?: boolean;
}

/**
 * Every reporter, in the order their files are rendered. EVALUATION.md takes extra sections
 * (a benchmark's own tables, answer-level grading) through registerEvaluationSection and
 * registerExperimentSection rather than edits to its reporter.
 */
export function reporters(options: ReporterOptions = {}): Reporter[] {
  if (options.project === false) {
    // A user's output folder: no answer-level section, FAILURE_ANALYSIS.md or schemas, which are the project's.
    return [createEvaluationReporter({ ...options, sections: () => [] }), chartsReporter, htmlReporter];
  }
  const markdown =
    options.scenarioSummaries === undefined
      ? [evaluationReporter, failureAnalysisReporter]
      : [createEvaluationReporter(options), createFailureAnalysisReporter(options)];
  return [...markdown, chartsReporter, htmlReporter, schemasReporter];
}
