/**
 * The sentence an experiment's findings open with: which policy to use on its first headline
 * metric, by how much it beats the default and the runner-up, and whether the runner-up can be
 * told apart. The default is kept unless a policy beats it significantly after Holm's adjustment,
 * and a policy whose rank metrics are not compared with the default's (another section layout), or
 * that returned more tokens than its budget, cannot win.
 */
import { higherIsBetter } from "../../harness/metrics.js";
import type { ExperimentResults } from "../../harness/results/types.js";
import type { CostRow } from "../../harness/summary/cost.js";
import { adjustedPLabel, adjustmentName } from "../../harness/summary/adjustment.js";
import { ALL_GROUP, DEFAULT_SUMMARY_SEED, comparePair, findRow } from "../../harness/summary/summarise.js";
import type { Comparison, ExperimentSummary } from "../../harness/summary/types.js";
import { crossingLabel, relevanceOf } from "./crossing.js";
import { code } from "./escape.js";
import { formatP, formatSignedInterval, metricDecimals } from "./format.js";
import { formatNumber } from "./table.js";
import { comparisonVerdict, perComparisonOnly } from "./verdict.js";

/** A group of policies that score alike on every ask, stated once; `name` is the one compared. */
interface Candidate {
  name: string;
  group: readonly string[];
  mean: number;
}

/**
 * `groups` are the experiment's policies grouped by identity (see identicalGroups); `lead` opens the
 * sentence (the experiment's name and protocol).
 */
export function recommendation(
  summary: ExperimentSummary,
  results: ExperimentResults,
  groups: readonly (readonly string[])[],
  cost: readonly CostRow[],
  lead: string,
): string {
  const { baseline } = summary;
  const metric = summary.headline[0];
  const d = metricDecimals(metric);
  const sign = higherIsBetter(metric) ? 1 : -1;
  const overBudget = new Set(cost.filter((row) => row.overBudget > 0).map((row) => row.ablation));
  const candidates: Candidate[] = groups
    .map((group) => {
      const name = group.includes(baseline) ? baseline : group[0];
      return { name, group: name === baseline ? [baseline] : group, mean: findRow(summary, name, metric, ALL_GROUP).value.mean };
    })
    .filter(({ name, group }) => name === baseline || (findRow(summary, name, metric, ALL_GROUP).vsBaseline!.comparable && !group.some((g) => overBudget.has(g))))
    // Stable: on a tie the default, then the experiment's order.
    .sort((a, b) => sign * (b.mean - a.mean) || Number(b.name === baseline) - Number(a.name === baseline));
  const [best, runnerUp] = candidates;
  const names = (c: Candidate) => c.group.map(code).join(" = ");
  const mean = (c: Candidate) => formatNumber(c.mean, d);
  const on = `on ${code(metric)}`;
  const lower = sign < 0 ? ", lower is better" : "";
  const backend = (name: string) => relevanceOf(results.experiment, name);
  const family = (c: Comparison) => summary.families.find((f) => f.name === c.family)?.size ?? 1;
  const baseMean = formatNumber(findRow(summary, baseline, metric, ALL_GROUP).value.mean, d);
  /** Δ from the default with its interval, whether it crosses backends, and its verdict. */
  const againstDefault = (c: Candidate) => {
    const vs = findRow(summary, c.name, metric, ALL_GROUP).vsBaseline!;
    return `${formatSignedInterval(vs.diff, d)} (${[crossingLabel(backend(c.name), backend(baseline)), verdictWords(vs, metric, family(vs))].filter(Boolean).join("; ")})`;
  };
  const keep = `${lead}: keep the default ${code(baseline)}`;

  if (best.name === baseline) {
    if (runnerUp === undefined) return `${keep}; no other policy is compared with it ${on}${sign < 0 ? " (lower is better)" : ""}.`;
    return `${keep} ${on} (${baseMean}${lower}): nothing compared scores better; the runner-up, ${names(runnerUp)} (${mean(runnerUp)}), differs from it by ${againstDefault(runnerUp)}.`;
  }
  const vs = findRow(summary, best.name, metric, ALL_GROUP).vsBaseline!;
  if (comparisonVerdict(vs, metric) !== "significant") {
    return `${keep} ${on} (${baseMean}${lower}): the best mean, ${names(best)}'s ${mean(best)}, differs from it by ${againstDefault(best)}.`;
  }
  const use = `${lead}: use ${names(best)} ${on} (${mean(best)} against ${baseMean} for the default ${code(baseline)}${lower}): ${againstDefault(best)} over the default`;
  if (runnerUp.name === baseline) return `${use}; no other policy beats the default.`;
  const pair = comparePair(results, runnerUp.name, best.name, metric, DEFAULT_SUMMARY_SEED);
  const crossing = crossingLabel(backend(best.name), backend(runnerUp.name));
  return `${use}, and ${formatSignedInterval(pair.diff, d)} over the runner-up, ${names(runnerUp)} (${[mean(runnerUp), crossing].filter(Boolean).join("; ")}), ${toldApart(pair, metric)}.`;
}

/** What the statistics say of a comparison with the default, in the words of its verdict. */
export function verdictWords(c: Comparison, metric: string, familySize: number): string {
  const verdict = comparisonVerdict(c, metric);
  const over = `over ${familySize} ${familySize === 1 ? "comparison" : "comparisons"}`;
  if (verdict === "significant") return `significant after ${adjustmentName(c)} ${over}, ${adjustedPLabel(c)} ${formatP(c.pHolm)}`;
  if (verdict === "per comparison only") return perComparisonOnly(familySize);
  if (verdict === "identical") return "the same on every ask";
  const mde = c.mde === undefined || c.mde <= 0 ? "" : `; the minimum detectable effect is ${formatNumber(c.mde, metricDecimals(metric))}`;
  return `not detected: the interval includes 0${mde}`;
}

/** Whether two policies compared per comparison (no Holm family) can be told apart. */
export function toldApart(pair: Comparison, metric: string): string {
  const verdict = comparisonVerdict(pair, metric);
  const p = `p ${formatP(pair.p)}, per comparison`;
  if (verdict === "significant") return `which can be told apart (${p})`;
  if (verdict === "identical") return "which scores the same on every ask";
  if (verdict === "per comparison only") return `whose interval excludes 0 though its test does not (${p})`;
  return `which cannot be told apart (${p})`;
}
