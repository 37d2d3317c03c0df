import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary-types.js";
import type { ReportContext } from "../reporter.js";

/** Markdown appended to EVALUATION.md after the experiments; "" adds nothing. */
export type SectionProvider = (context: ReportContext) => string;

export interface ExperimentView {
  results: ExperimentResults;
  summary: ExperimentSummary;
}

/** Markdown appended at the end of one experiment's section; "" adds nothing. */
export type ExperimentSectionProvider = (context: ReportContext, experiment: ExperimentView) => string;

/*
 * Kept apart from the registry so that evaluation.ts can read the providers without importing
 * the registry, which imports evaluation.ts.
 */
const documentProviders: SectionProvider[] = [];
const experimentProviders: ExperimentSectionProvider[] = [];

export function registerEvaluationSection(provider: SectionProvider): void {
  if (!documentProviders.includes(provider)) documentProviders.push(provider);
}

export function registerExperimentSection(provider: ExperimentSectionProvider): void {
  if (!experimentProviders.includes(provider)) experimentProviders.push(provider);
}

export function evaluationSections(): readonly SectionProvider[] {
  return [...documentProviders];
}

export function experimentSections(): readonly ExperimentSectionProvider[] {
  return [...experimentProviders];
}
