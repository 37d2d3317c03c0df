import { appendixReporter } from "./appendix.js";
import { evaluationReporter } from "./evaluation.js";
import { failureAnalysisReporter } from "./failure-analysis.js";
import { answersSection } from "./markdown/answers.js";
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

registerExperimentSection(locomoSection);
registerEvaluationSection(answersSection);

/**
 * Every reporter, in the order their files are rendered. EVALUATION.md takes extra sections
 * (a benchmark's own tables, answer-level grading) through registerEvaluationSection and
 * registerExperimentSection rather than edits to its reporter.
 */
export function reporters(): Reporter[] {
  return [evaluationReporter, appendixReporter, failureAnalysisReporter, chartsReporter, htmlReporter, schemasReporter];
}
