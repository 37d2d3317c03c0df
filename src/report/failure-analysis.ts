import { fillFigureMarkers, markerError, type FigureMarker } from "./markdown/figure-markers.js";
import { renderFigures } from "./markdown/figures.js";
import { renderSweepFigures } from "./markdown/sweep.js";
import { DENSE_ALONE, LEXICAL_ALONE, missingForConclusions, renderBackendConclusions, renderDisagreement } from "./markdown/backends.js";
import { isRankMetric } from "../harness/metrics.js";
import { DEFAULT_SUMMARY_SEED } from "../harness/summary/summarise.js";
import { FAILURE_ANALYSIS_PATH } from "./paths.js";
import type { OutputFile, ReportContext, Reporter } from "./reporter.js";

/**
 * Fills the figure blocks of the hand-written FAILURE_ANALYSIS.md from results. The prose is the
 * author's; every number between `<!-- figures … -->` and `<!-- /figures -->` is regenerated, so a
 * claim cannot drift from the measurement. A marker naming an experiment, ablation, metric or
 * scenario that the results do not have is an error naming that marker.
 */
export function fillFailureAnalysis(source: string, context: ReportContext): string {
  return fillFigureMarkers(source, FAILURE_ANALYSIS_PATH, (marker) => figuresFor(marker, context));
}

function figuresFor(marker: FigureMarker, context: ReportContext): string {
  const fail = (problem: string) => markerError(FAILURE_ANALYSIS_PATH, marker, problem);
  const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");

  const index = context.results.findIndex((r) => r.experiment.name === marker.experiment);
  if (index < 0) {
    throw fail(`unknown experiment "${marker.experiment}" (recorded: ${list(context.results.map((r) => r.experiment.name))})`);
  }
  const results = context.results[index];
  const summary = context.summaries.find((s) => s.experiment === marker.experiment);
  if (summary === undefined) throw new Error(`no summary was computed for experiment "${marker.experiment}"`);
  if (marker.kind === "sweep") {
    const figures = renderSweepFigures({ results, summary });
    if (figures === "") throw fail(`experiment "${marker.experiment}" has no sweep`);
    return figures;
  }
  if (marker.kind === "backends") {
    const missing = missingForConclusions(results);
    if (missing.length > 0) throw fail(`experiment "${marker.experiment}" lacks the ablations ${list(missing)}`);
    return renderBackendConclusions(results, summary, { seed: DEFAULT_SUMMARY_SEED });
  }
  if (marker.kind === "disagreement") {
    const names = summary.ablations;
    const missing = [LEXICAL_ALONE, DENSE_ALONE].filter((n) => !names.includes(n));
    if (missing.length > 0) throw fail(`experiment "${marker.experiment}" lacks the ablations ${list(missing)}`);
    if (!summary.metrics.includes(marker.metric) || !isRankMetric(marker.metric)) throw fail(`"${marker.metric}" is not a rank metric of experiment "${marker.experiment}"`);
    return renderDisagreement(results, marker.metric, { seed: DEFAULT_SUMMARY_SEED });
  }

  if (!summary.ablations.includes(marker.ablation)) {
    throw fail(`unknown ablation "${marker.ablation}" (experiment "${marker.experiment}" has ${list(summary.ablations)})`);
  }
  if (marker.ablation === summary.baseline) {
    throw fail(`ablation "${marker.ablation}" is the baseline; name an ablation to compare with it`);
  }
  if (!summary.metrics.includes(marker.metric)) {
    throw fail(`unknown metric "${marker.metric}" (experiment "${marker.experiment}" reports ${list(summary.metrics)})`);
  }
  const scenarios = results.experiment.scenarios.map((s) => s.name);
  if (marker.scenario !== undefined && !scenarios.includes(marker.scenario)) {
    throw fail(`unknown scenario "${marker.scenario}" (experiment "${marker.experiment}" has ${list(scenarios)})`);
  }

  // A scenario's figures quote its designed failure, the claim EVALUATION.md tests: one verdict.
  const claim =
    marker.scenario === undefined
      ? undefined
      : summary.designedFailures.find(
          (c) => c.scenario === marker.scenario && c.ablation === marker.ablation && c.metric === marker.metric,
        );
  if (marker.scenario !== undefined && claim === undefined) {
    throw fail(
      `scenario "${marker.scenario}" does not claim that "${marker.ablation}" fails on "${marker.metric}"; ` +
        "add it to the scenario's targets, or drop scenario= to quote the comparison over all asks",
    );
  }
  return renderFigures({ results, summary, ablation: marker.ablation, metric: marker.metric, scenario: marker.scenario, claim });
}

export const failureAnalysisReporter: Reporter = {
  name: "failure-analysis",
  async render(context: ReportContext): Promise<OutputFile[]> {
    const source = context.readExisting(FAILURE_ANALYSIS_PATH);
    if (source === undefined) return [];
    return [{ path: FAILURE_ANALYSIS_PATH, content: fillFailureAnalysis(source, context) }];
  },
};
