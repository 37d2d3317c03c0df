/**
 * A comparison between policies that rank by different relevance backends measures the backend
 * as much as the policy, so every such comparison says so where it is stated.
 */
import type { ExperimentInfo } from "../../harness/results/types.js";

/** The relevance backend a policy ranks by; undefined for a system outside recollect. */
export function relevanceOf(experiment: ExperimentInfo, name: string): string | undefined {
  return experiment.ablations.find((a) => a.name === name)?.policy?.score.relevance;
}

/** "across relevance backends, bm25 against words", or "" when both rank alike or either has no backend of ours. */
export function crossingLabel(mine: string | undefined, theirs: string | undefined): string {
  return mine === undefined || theirs === undefined || mine === theirs ? "" : `across relevance backends, ${mine} against ${theirs}`;
}
