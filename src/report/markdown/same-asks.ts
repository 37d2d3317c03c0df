/**
 * Policies that score alike on every ask: under some protocols two ablations retrieve the same
 * memories everywhere (`relevance-only` and `no-decay` when every memory is equally old to the
 * ranking), and a report that states each of them apart repeats one finding as two.
 */
import { metricReader } from "../../harness/metrics.js";
import type { ExperimentResults } from "../../harness/results/types.js";
import { alignResults } from "../../harness/summary/align.js";

/**
 * The policies of `results` grouped by identity: two share a group when every (scenario, ask,
 * seed) gives them the same value on each of `metrics`, and they rank by the same relevance backend
 * over the same section layout, so that what is said of one (a backend crossed, rank metrics not
 * compared) holds for the other. Groups keep the experiment's order, as do their members; a policy
 * like no other is a group of one.
 */
export function identicalGroups(results: ExperimentResults, metrics: readonly string[]): string[][] {
  const aligned = alignResults(results);
  const ranking = new Map(results.experiment.ablations.map((a) => [a.name, `${a.policy?.score.relevance}\u0000${a.policy?.mode}`]));
  const readers = metrics.map(metricReader);
  const groups: string[][] = [];
  for (const { name } of results.experiment.ablations) {
    const asks = aligned.byAblation.get(name)!;
    const same = groups.find(([first]) => {
      if (ranking.get(first) !== ranking.get(name)) return false;
      const theirs = aligned.byAblation.get(first)!;
      return asks.every((ask, i) => readers.every((read) => read(ask) === read(theirs[i])));
    });
    if (same === undefined) groups.push([name]);
    else same.push(name);
  }
  return groups;
}
