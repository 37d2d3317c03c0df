/**
 * The findings: what an experiment's numbers license, in sentences, generated from its summary so
 * that no sentence can outrun the statistics. Each experiment opens with what to use (see
 * recommendation), then the evidence: per headline metric, the policies better and worse than the
 * baseline, those significant per comparison only, those where nothing was detected (with the
 * minimum detectable effects that say how large an effect could have hidden), and those identical
 * to it. Policies identical on every ask are stated once, as a group.
 */
import { higherIsBetter } from "../../harness/metrics.js";
import type { ExperimentInfo, ExperimentResults } from "../../harness/results/types.js";
import { ALL_GROUP, findRow, significanceFloor } from "../../harness/summary/summarise.js";
import type { CostRow } from "../../harness/summary/cost.js";
import { adjustmentName } from "../../harness/summary/adjustment.js";
import type { Comparison, ExperimentSummary } from "../../harness/summary/types.js";
import { plural } from "../../shared/errors.js";
import { crossingLabel, relevanceOf } from "./crossing.js";
import { code, escapeMarkdown } from "./escape.js";
import { formatClusters, formatCount, formatSignedInterval, formatUnits, metricDecimals } from "./format.js";
import { PROTOCOL_WORDS } from "./experiment.js";
import { recommendation } from "./recommendation.js";
import { identicalGroups } from "./same-asks.js";
import { formatNumber } from "./table.js";
import { comparisonVerdict, perComparisonOnly, type Verdict } from "./verdict.js";

export interface ExperimentFindings {
  experiment: string;
  sentences: string[];
}

/** One entry of a list of comparisons: a group of policies that score alike, with its comparison. */
interface Entry {
  group: readonly string[];
  c: Comparison;
}

export function experimentFindings(summary: ExperimentSummary, results: ExperimentResults, cost: readonly CostRow[] = []): ExperimentFindings {
  const { experiment } = results;
  const groups = identicalGroups(results, summary.metrics);
  const asked = experiment.protocol === undefined ? "" : ` (${PROTOCOL_WORDS[experiment.protocol]})`;
  const sentences = [recommendation(summary, results, groups, cost, `${code(summary.experiment)}${asked}`)];

  const asks = experiment.scenarios.reduce((sum, s) => sum + s.asks.length, 0);
  const systems = experiment.ablations.filter((a) => a.system !== undefined && a.name !== summary.baseline).length;
  const others = summary.ablations.length - 1 - systems;
  const compared = [others > 0 || systems === 0 ? plural(others, "ablation") : "", systems > 0 ? plural(systems, "system") : ""].filter(Boolean).join(" and ");
  sentences.push(
    `It compares ${compared} with ${code(summary.baseline)} on ${formatCount(asks)} asks in ${formatCount(experiment.scenarios.length)} ` +
      `${experiment.scenarios.length === 1 ? "scenario" : "scenarios"}, each under ${plural(experiment.seeds.length, "seed")}; the unit is ${summary.unit.label}.`,
  );
  const own = groups.find((g) => g.includes(summary.baseline))!.filter((a) => a !== summary.baseline);
  if (own.length > 0) {
    sentences.push(`${own.map(code).join(", ")} ${own.length === 1 ? "scores" : "score"} exactly as ${code(summary.baseline)} on every ask and metric.`);
  }
  const rest = groups.filter((g) => !g.includes(summary.baseline));
  const base = findRow(summary, summary.baseline, summary.headline[0], ALL_GROUP).value;
  const limit = adjustmentLimit(summary);
  if (limit !== undefined) sentences.push(limit);
  for (const metric of summary.headline) sentences.push(...metricSentences(summary, experiment, rest, metric, formatUnits(summary.unit, base)));

  const incomparable = summary.ablations.filter((a) =>
    summary.headline.some((m) => findRow(summary, a, m, ALL_GROUP).vsBaseline?.comparable === false),
  );
  if (incomparable.length > 0) {
    const layout = experiment.ablations.find((a) => a.name === summary.baseline)?.policy?.mode === "per-kind" ? " (one list against a section per kind)" : " (a section per kind against one list)";
    sentences.push(
      `${incomparable.map(code).join(", ")} ${incomparable.length === 1 ? "ranks" : "rank"} over a different section layout than ` +
        `${code(summary.baseline)}${layout}, so ${incomparable.length === 1 ? "its" : "their"} rank metrics are not compared; block coverage is.`,
    );
  }
  sentences.push(...costSentences(cost));

  const claims = summary.designedFailures;
  if (claims.length > 0) {
    const held = claims.filter((c) => c.loses);
    const failed = claims.filter((c) => !c.loses);
    sentences.push(
      `${held.length} of ${claims.length} designed failures hold across seeds (the seed as the unit, p (Holm) < 0.05)` +
        (failed.length === 0
          ? "."
          : `; not shown to fail: ${failed.map((c) => `${code(c.ablation)} on ${code(c.scenario)} (${escapeMarkdown(c.metric)})`).join(", ")}.`),
    );
  }
  return { experiment: summary.experiment, sentences };
}

/**
 * What one headline metric shows against the baseline, a sentence per verdict: better and worse
 * after the family's adjustment (largest first), significant per comparison only, not detected, and the
 * same on every ask. Each group of identical policies is one entry; entries that cross relevance
 * backends are listed under their label.
 */
function metricSentences(summary: ExperimentSummary, experiment: ExperimentInfo, groups: readonly (readonly string[])[], metric: string, experimentUnits: string): string[] {
  const d = metricDecimals(metric);
  const byVerdict = new Map<Verdict, Entry[]>();
  for (const group of groups) {
    const c = findRow(summary, group[0], metric, ALL_GROUP).vsBaseline!;
    const verdict = comparisonVerdict(c, metric);
    byVerdict.set(verdict, [...(byVerdict.get(verdict) ?? []), { group, c }]);
  }
  const compared = [...byVerdict].filter(([verdict]) => verdict !== "not comparable").reduce((sum, [, entries]) => sum + entries.length, 0);
  // The family's size, adjustment and level come from a comparison that belongs to it.
  const first = [...byVerdict.values()].flat().find((e) => e.c.comparable)?.c;
  if (first === undefined) return [];
  const size = summary.families.find((f) => f.name === first.family)?.size ?? 1;
  const units = formatUnits(summary.unit, first.diff);
  const on = `${code(metric)}${higherIsBetter(metric) ? "" : " (lower is better)"}${units === experimentUnits ? "" : ` (over ${units})`}`;
  const base = code(summary.baseline);
  const list = (entries: readonly Entry[], withDiff: boolean) => entryList(experiment, summary.baseline, entries, (e) => (withDiff ? ` ${formatSignedInterval(e.c.diff, d)}` : ""));
  const gain = (e: Entry) => (higherIsBetter(metric) ? 1 : -1) * e.c.diff.mean;
  const significant = (byVerdict.get("significant") ?? []).sort((a, b) => gain(b) - gain(a));
  const better = significant.filter((e) => gain(e) > 0);
  const worse = significant.filter((e) => gain(e) < 0).reverse();
  const sentences: string[] = [];
  const holm = `On ${on}, significant after ${adjustmentName(first)} over ${size} comparisons`;
  if (better.length > 0) sentences.push(`${holm}, better than ${base}: ${list(better, true)}.`);
  if (worse.length > 0) sentences.push(`${better.length > 0 ? "Worse" : `${holm}, worse`} than ${base}: ${list(worse, true)}.`);
  const perComparison = byVerdict.get("per comparison only") ?? [];
  if (perComparison.length > 0) {
    sentences.push(`On ${on}, the differences from ${base} of ${list(perComparison, true)} are ${perComparisonOnly(size)}.`);
  }
  const undetected = byVerdict.get("not detected") ?? [];
  if (undetected.length > 0) {
    const mdes = undetected.map((e) => e.c.mde).filter((m): m is number => m !== undefined && m > 0);
    const level = first.mdeLevel === undefined ? "" : ` at the family's level ${formatLevel(first.mdeLevel)}`;
    const [low, high] = mdes.length === 0 ? ["", ""] : [formatNumber(Math.min(...mdes), d), formatNumber(Math.max(...mdes), d)];
    const range = mdes.length === 0 ? "" : `; minimum detectable ${low === high ? `effect${level} ${low}` : `effects${level} ${low}–${high}`}`;
    const largest = formatNumber(Math.max(...undetected.map((e) => Math.abs(e.c.diff.mean))), d);
    // A largest |Δ| that rounds to 0 is said as a bound the reader can read, never "≤ 0.000".
    const bound = Number(largest) === 0 ? `|Δ| < ${formatNumber(10 ** -d, d)}` : `|Δ| ≤ ${largest}`;
    // When nothing compared was detected, the list would name every policy again.
    const same = byVerdict.get("identical")?.length ?? 0;
    const crossing = crossingNote(experiment, summary.baseline, undetected);
    const whom =
      undetected.length + same === compared && undetected.length > 1
        ? `any of the ${undetected.length} policies compared${same === 0 ? "" : ` that do not score exactly as it`}${crossing === "" ? "" : ` (${crossing})`}`
        : list(undetected, false);
    sentences.push(`On ${on}, no difference from ${base} was detected (${bound}${range}) for ${whom}.`);
  }
  const same = byVerdict.get("identical") ?? [];
  if (same.length > 0) sentences.push(`On ${on}, ${list(same, false)} ${same.length === 1 && same[0].group.length === 1 ? "scores" : "score"} exactly as ${base} on every ask.`);
  return sentences;
}

/**
 * Why nothing can be significant after adjustment, when that is so: with few clusters the exact
 * sign-flip test's smallest p (2 / 2^clusters) is not below the level the family's adjustment
 * needs at the least (see significanceFloor: Holm's first step, α over the family's size; α
 * itself under Westfall–Young), so a reader does not take "per comparison only" for a near miss.
 * Said once, for the first headline comparison it holds for.
 */
function adjustmentLimit(summary: ExperimentSummary): string | undefined {
  for (const metric of summary.headline) {
    for (const ablation of summary.ablations) {
      const c = findRow(summary, ablation, metric, ALL_GROUP).vsBaseline;
      const floor = c === undefined ? undefined : significanceFloor(c);
      if (c?.comparable !== true || c.smallestP === undefined || floor === undefined || c.smallestP < floor) continue;
      const size = summary.families.find((f) => f.name === c.family)?.size ?? 1;
      const level = c.adjustment === "westfall-young" ? formatLevel(floor) : `${formatLevel(floor)} (0.05 over ${plural(size, "comparison")})`;
      return (
        `With ${formatClusters(c.diff)}, the exact sign-flip test's smallest p is ${formatLevel(c.smallestP)}, not below ` +
        `${level}: no difference can be significant after ${adjustmentName(c)}'s adjustment here, only per comparison.`
      );
    }
  }
  return undefined;
}

/** α / m or a smallest p as a number a reader can compare p-values with: "0.0014". */
function formatLevel(level: number): string {
  return level >= 0.001 ? level.toPrecision(2) : level.toExponential(1);
}

/**
 * "`a` = `b` +0.357 [+0.320, +0.395], `c` …; `d` … (across relevance backends, bm25 against words)":
 * entries ranking as the baseline does first, then those of each other backend with its label.
 */
function entryList(experiment: ExperimentInfo, baseline: string, entries: readonly Entry[], detail: (e: Entry) => string): string {
  const theirs = relevanceOf(experiment, baseline);
  const labelled = new Map<string, Entry[]>();
  for (const e of entries) {
    const label = crossingLabel(relevanceOf(experiment, e.group[0]), theirs);
    labelled.set(label, [...(labelled.get(label) ?? []), e]);
  }
  return [...labelled]
    .sort(([a], [b]) => Number(a !== "") - Number(b !== ""))
    .map(([label, members]) => `${members.map((e) => `${e.group.map(code).join(" = ")}${detail(e)}`).join(", ")}${label === "" ? "" : ` (${label})`}`)
    .join("; ");
}

/** "those ranking by bm25 or embedding relevance compare across relevance backends, against words", or "". */
function crossingNote(experiment: ExperimentInfo, baseline: string, entries: readonly Entry[]): string {
  const theirs = relevanceOf(experiment, baseline);
  const others = [...new Set(entries.map((e) => relevanceOf(experiment, e.group[0])))].filter((b): b is string => b !== undefined && b !== theirs);
  if (theirs === undefined || others.length === 0) return "";
  const named = others.length === 1 ? others[0] : `${others.slice(0, -1).join(", ")} or ${others.at(-1)}`;
  return `those ranking by ${named} relevance compare across relevance backends, against ${theirs}`;
}

/** The Findings section of EVALUATION.md. */
export function renderFindings(findings: readonly ExperimentFindings[]): string {
  if (findings.length === 0) return "## Findings\n\nNo results are recorded yet.";
  return [
    "## Findings",
    "Brackets hold 95% confidence intervals, per comparison; `a` = `b` names policies that score alike on every ask and metric, stated once.",
    ...findings.map((f) => f.sentences.join(" ")),
  ].join("\n\n");
}

/**
 * What the findings must say about cost before a comparison can be trusted: a system that took more
 * tokens than its budget, and trials a failing system skipped.
 */
function costSentences(cost: readonly CostRow[]): string[] {
  return cost.flatMap((row) => {
    const out: string[] = [];
    if (row.overBudget > 0 && row.budget !== undefined && row.budget !== null) {
      out.push(
        `${code(row.ablation)} returned more than its budget of ${formatCount(row.budget)} tokens on ${formatCount(row.overBudget)} of ${formatCount(row.asks)} asks × seeds ` +
          `(${formatNumber(row.lineTokens, 0)} tokens per ask on average), so its coverage is bought with tokens the others did not spend.`,
      );
    }
    if (row.skipped > 0) {
      out.push(`${code(row.ablation)} failed ${row.skipped} of ${row.trials} trials, skipped and scored as empty retrievals, so its figures understate what it does when it works.`);
    }
    return out;
  });
}
