import { higherIsBetter } from "../metrics.js";
import type { ExperimentResults } from "../results/types.js";
import { ALL_GROUP, findRow } from "../summary.js";
import type { ExperimentSummary, MetricSummary } from "../summary-types.js";
import { scenarioSummary, type ScenarioSummaryOptions } from "./by-scenario.js";

/** Token use is a cost, not a measure of retrieval quality, so it is never a key metric. */
const NOT_QUALITY = new Set(["tokens"]);

export interface ScenarioLoss {
  scenario: string;
  /** The ablation's row for the key metric in the scenario-restricted summary. */
  row: MetricSummary;
  /** Whether the loss is significant after Holm within that scenario's comparisons. */
  significant: boolean;
}

export interface AblationLosses {
  ablation: string;
  /** The quality metric on which the ablation falls furthest below the baseline over all asks. */
  keyMetric: string;
  /** The ablation's all-asks row for that metric. */
  overall: MetricSummary;
  /** Significant losses, plus the largest loss if it is not one of them; worst first. */
  losses: ScenarioLoss[];
}

/** Δ signed so that negative always means worse than the baseline. */
export function signedGain(row: MetricSummary): number {
  const diff = row.vsBaseline?.diff.mean ?? 0;
  return higherIsBetter(row.metric) ? diff : -diff;
}

/**
 * For each non-baseline ablation, where it loses on its key metric: every scenario where the
 * loss is significant, and the scenario where it loses by the largest margin. All quality
 * metrics except token use lie in [0, 1], so their differences are comparable when choosing the
 * key metric.
 */
export function whereAblationsLose(
  results: ExperimentResults,
  summary: ExperimentSummary,
  options: ScenarioSummaryOptions = {},
): AblationLosses[] {
  const scenarios = results.experiment.scenarios.map((s) => s.name);
  return summary.ablations
    .filter((ablation) => ablation !== summary.baseline)
    .map((ablation) => {
      const candidates = summary.metrics
        .filter((m) => !NOT_QUALITY.has(m))
        .map((m) => findRow(summary, ablation, m, ALL_GROUP))
        .filter((row) => (row.vsBaseline?.diff.n ?? 0) > 0);
      const overall = candidates.reduce<MetricSummary | undefined>(
        (worst, row) => (worst === undefined || signedGain(row) < signedGain(worst) ? row : worst),
        undefined,
      ) ?? findRow(summary, ablation, summary.metrics[0], ALL_GROUP);

      const perScenario = scenarios
        .map((scenario) => {
          const row = findRow(scenarioSummary(results, scenario, options), ablation, overall.metric, ALL_GROUP);
          return { scenario, row, significant: row.vsBaseline!.significant && signedGain(row) < 0 };
        })
        .filter((loss) => signedGain(loss.row) < 0);
      const worst = perScenario.reduce<ScenarioLoss | undefined>(
        (w, loss) => (w === undefined || signedGain(loss.row) < signedGain(w.row) ? loss : w),
        undefined,
      );
      const losses = perScenario
        .filter((loss) => loss.significant || loss === worst)
        .sort((x, y) => signedGain(x.row) - signedGain(y.row));
      return { ablation, keyMetric: overall.metric, overall, losses };
    });
}
