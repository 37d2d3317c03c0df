import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import type { ReportContext } from "../reporter.js";

/** Markdown appended to EVALUATION.md after the experiments; "" adds nothing. */
export type SectionProvider = (context: ReportContext) => string;

export interface ExperimentView {
  results: ExperimentResults;
  summary: ExperimentSummary;
}

/**
 * Markdown appended at the end of one experiment's section; "" adds nothing. `experiment` is its
 * first run, `runs` every run (one per ask protocol) for sections that compare them.
 */
export type ExperimentSectionProvider = (context: ReportContext, experiment: ExperimentView, runs: readonly ExperimentView[]) => string;
