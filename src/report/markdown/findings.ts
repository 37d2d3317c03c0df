/**
 * The findings: what an experiment's numbers license, in sentences, generated from its summary so
 * that no sentence can outrun the statistics. One sentence per experiment and per significant or
 * notable effect on a headline metric; the comparisons where nothing was detected are named
 * together, with the minimum detectable effects that say how large an effect could have hidden.
 */
import { higherIsBetter } from "../../harness/metrics.js";
import type { ExperimentInfo } from "../../harness/results/types.js";
import { ALL_GROUP, comparisonVerdict, findRow } from "../../harness/summary/summarise.js";
import type { CostRow } from "../../harness/summary/cost.js";
import type { Comparison, ExperimentSummary } from "../../harness/summary/types.js";
import { plural } from "../../shared/errors.js";
import { code, escapeMarkdown } from "./escape.js";
import { formatClusters, formatCount, formatP, formatSigned, formatUnits, metricDecimals } from "./format.js";
import { PROTOCOL_WORDS } from "./experiment.js";
import { identical } from "./summary-tables.js";
import { formatNumber } from "./table.js";

export interface ExperimentFindings {
  experiment: string;
  sentences: string[];
}

/**
 * A non-significant effect is notable when its per-comparison interval excludes 0 (it must not
 * be listed as "not detected" beside that interval), or when its estimate is at least the
 * minimum detectable effect: it looks large, yet this design cannot tell it from chance.
 */
function notable(c: Comparison): boolean {
  if (c.significant) return false;
  return comparisonVerdict(c) === "per-comparison" || (c.mde !== undefined && c.mde > 0 && Math.abs(c.diff.mean) >= c.mde);
}

/**
 * What the family's level allows, for a comparison that is not significant: its MDE at α / the
 * family's size, or that nothing can be significant after Holm when the exact test's smallest p
 * is not below that level, or nothing when there is no variance.
 */
function detectability(c: Comparison, d: number): string {
  const level = c.mdeLevel === undefined ? "" : ` at the family's level ${formatLevel(c.mdeLevel)}`;
  if (c.mde !== undefined) return `the minimum detectable effect${level} is ${formatNumber(c.mde, d)}`;
  if (c.smallestP !== undefined && c.mdeLevel !== undefined && c.smallestP >= c.mdeLevel) {
    return `with ${formatClusters(c.diff)} the exact test's smallest p, ${formatLevel(c.smallestP)}, is not below ${formatLevel(c.mdeLevel)}: no effect can be significant after Holm`;
  }
  return "there is no variance between clusters to size a detectable effect by";
}

/** α / m as a number a reader can compare p-values with: "0.0016". */
function formatLevel(level: number): string {
  return level >= 0.001 ? level.toPrecision(2) : level.toExponential(1);
}

export function experimentFindings(summary: ExperimentSummary, experiment: ExperimentInfo, cost: readonly CostRow[] = []): ExperimentFindings {
  const sentences: string[] = [];
  const description = {
    asks: experiment.scenarios.reduce((sum, s) => sum + s.asks.length, 0),
    scenarios: experiment.scenarios.length,
    seeds: experiment.seeds.length,
  };
  const base = findRow(summary, summary.baseline, summary.headline[0], ALL_GROUP).value;
  const asked = experiment.protocol === undefined ? "" : ` (${PROTOCOL_WORDS[experiment.protocol]})`;
  const systems = experiment.ablations.filter((a) => a.system !== undefined && a.name !== summary.baseline).length;
  const others = summary.ablations.length - 1 - systems;
  const compared = [others > 0 || systems === 0 ? plural(others, "ablation") : "", systems > 0 ? plural(systems, "system") : ""].filter(Boolean).join(" and ");
  sentences.push(
    `${code(summary.experiment)}${asked} compares ${compared} with ${code(summary.baseline)} on ` +
      `${formatCount(description.asks)} asks in ${formatCount(description.scenarios)} ${description.scenarios === 1 ? "scenario" : "scenarios"}, ` +
      `each under ${plural(description.seeds, "seed")}; the unit is ${summary.unit.label}.`,
  );

  // One sentence per ablation with an effect, its metrics joined; then, per metric, what was not.
  const units = formatUnits(summary.unit, base);
  for (const ablation of summary.ablations) {
    const effects = summary.headline.flatMap((metric) => {
      const c = findRow(summary, ablation, metric, ALL_GROUP).vsBaseline;
      return c !== undefined && c.comparable && (c.significant || notable(c)) ? [effectClause(summary, metric, c, units)] : [];
    });
    // "raises a by … and b by …": a verb is said once while it holds.
    const joined = effects.map((e, i) => (i > 0 && e.split(" ")[0] === effects[i - 1].split(" ")[0] ? e.slice(e.indexOf(" ") + 1) : e));
    if (effects.length > 0) sentences.push(`${code(ablation)} ${joined.join(" and ")}.`);
  }
  sentences.push(...backendSentences(summary, experiment));
  for (const metric of summary.headline) {
    const undetected: { ablation: string; c: Comparison }[] = [];
    const same: string[] = [];
    const d = metricDecimals(metric);
    for (const ablation of summary.ablations) {
      const c = findRow(summary, ablation, metric, ALL_GROUP).vsBaseline;
      if (c === undefined || !c.comparable || c.significant || notable(c)) continue;
      if (identical(c)) same.push(ablation);
      else undetected.push({ ablation, c });
    }
    if (undetected.length > 0) {
      const mdes = undetected.map((u) => u.c.mde).filter((m): m is number => m !== undefined);
      const [low, high] = mdes.length === 0 ? ["", ""] : [formatNumber(Math.min(...mdes), d), formatNumber(Math.max(...mdes), d)];
      const first = undetected[0].c;
      const level = first.mdeLevel === undefined ? "" : ` at the family's level ${formatLevel(first.mdeLevel)}`;
      const range =
        mdes.length === 0
          ? `; ${detectability(first, d)}`
          : `; at ${formatClusters(first.diff)} the minimum detectable ` +
            `${low === high ? `effect${level} is ${low}` : `effects${level} are ${low}–${high}`}, so smaller effects could not be detected`;
      const largest = formatNumber(Math.max(...undetected.map((u) => Math.abs(u.c.diff.mean))), d);
      // A largest |Δ| that rounds to 0 is said as a bound the reader can read, never "≤ 0.000".
      const bound = Number(largest) === 0 ? `|Δ| < ${formatNumber(10 ** -d, d)}` : `|Δ| ≤ ${largest}`;
      sentences.push(
        `On ${code(metric)}, no difference from ${code(summary.baseline)} was detected for ` +
          `${undetected.map((u) => code(u.ablation)).join(", ")} (${bound}${range}).`,
      );
    }
    if (same.length > 0) {
      sentences.push(`On ${code(metric)}, ${same.map(code).join(", ")} ${same.length === 1 ? "scores" : "score"} exactly as ${code(summary.baseline)} on every ask.`);
    }
  }

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
 * A comparison between policies that rank by different relevance backends crosses backends: the
 * difference is the backend's as much as the ablation's, which the findings must say, once per
 * backend for the ablations that rank by it.
 */
function backendSentences(summary: ExperimentSummary, experiment: ExperimentInfo): string[] {
  const backend = (name: string) => experiment.ablations.find((a) => a.name === name)?.policy?.score.relevance;
  const theirs = backend(summary.baseline);
  // A system outside recollect has no backend of ours to name.
  if (theirs === undefined) return [];
  const crossing = new Map<string, string[]>();
  for (const ablation of summary.ablations) {
    const mine = backend(ablation);
    if (mine !== undefined && mine !== theirs) crossing.set(mine, [...(crossing.get(mine) ?? []), ablation]);
  }
  return [...crossing].map(
    ([mine, names]) => `${names.map(code).join(", ")} ${names.length === 1 ? "ranks" : "rank"} by ${mine} relevance, ${code(summary.baseline)} by ${theirs}: ${names.length === 1 ? "its comparison crosses" : "their comparisons cross"} relevance backends.`,
  );
}

/**
 * "raises `metric` by 0.357 (better; 95% CI …; p (Holm) …)"; the units are named only where they
 * differ from the experiment's, stated once in its opening sentence.
 */
function effectClause(summary: ExperimentSummary, metric: string, c: Comparison, experimentUnits: string): string {
  const d = metricDecimals(metric);
  const rises = c.diff.mean > 0;
  const better = rises === higherIsBetter(metric);
  const units = formatUnits(summary.unit, c.diff);
  const family = summary.families.find((f) => f.name === c.family)?.size;
  const perComparison = comparisonVerdict(c) === "per-comparison";
  const verdict = c.significant
    ? `p (Holm) ${formatP(c.pHolm)}`
    : `${perComparison ? `significant per comparison only (the interval excludes 0; not after Holm over ${family} comparisons)` : "not significant after Holm"}, ` +
      `p (Holm) ${formatP(c.pHolm)}; ${detectability(c, d)}`;
  return (
    `${rises ? "raises" : "lowers"} ${code(metric)} by ${formatNumber(Math.abs(c.diff.mean), d)} ` +
    `(${better ? "better" : "worse"}; [${formatSigned(c.diff.lo, d)}, ${formatSigned(c.diff.hi, d)}]` +
    `${units === experimentUnits ? "" : `, ${units}`}; ${verdict})`
  );
}

/** The Findings section of EVALUATION.md. */
export function renderFindings(findings: readonly ExperimentFindings[]): string {
  if (findings.length === 0) return "## Findings\n\nNo results are recorded yet.";
  return ["## Findings", "Brackets hold 95% confidence intervals.", ...findings.map((f) => f.sentences.join(" "))].join("\n\n");
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
