/**
 * The same results seen from another reference: some of their ablations, one of them as the
 * baseline. Summarising that gives every named ablation's comparison with the new reference, its
 * Holm family the comparisons of this view alone (the ones a table built on it states).
 */
import type { ExperimentResults } from "../results/types.js";

export function rebase(results: ExperimentResults, baseline: string, ablations: readonly string[]): ExperimentResults {
  const kept = new Set([baseline, ...ablations]);
  const missing = [...kept].filter((name) => !results.experiment.ablations.some((a) => a.name === name));
  if (missing.length > 0) throw new Error(`experiment "${results.experiment.name}" has no ablation ${missing.map((m) => `"${m}"`).join(", ")}`);
  const order = [baseline, ...results.experiment.ablations.map((a) => a.name).filter((n) => n !== baseline && kept.has(n))];
  return {
    ...results,
    experiment: {
      ...results.experiment,
      baseline,
      ablations: order.map((name) => results.experiment.ablations.find((a) => a.name === name)!),
      // A scenario's designed failures are claims against the file's own baseline, not this one.
      scenarios: results.experiment.scenarios.map((s) => ({ ...s, targets: [] })),
    },
    trials: results.trials.filter((t) => kept.has(t.ablation)),
  };
}
