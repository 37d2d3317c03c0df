/**
 * A sweep in the reports: in EVALUATION.md, the held-out winner against the ordinary ablations
 * in one compact table; in the appendix, every fold, every comparison and every point.
 */
import { describeValues } from "../../harness/experiment/sweep-points.js";
import { analyseSweep, type SweepAnalysis } from "../../harness/sweep/analysis.js";
import type { ClusteredComparison } from "../../harness/stats/index.js";
import { ALL_GROUP, DEFAULT_SUMMARY_SEED, PER_COMPARISON, SIGNIFICANCE_LEVEL, findRow } from "../../harness/summary/summarise.js";
import type { Comparison, ExperimentSummary } from "../../harness/summary/types.js";
import { appendixPath, presetPath, resultsPath } from "../paths.js";
import { crossingLabel, relevanceOf } from "./crossing.js";
import { code, escapeProse } from "./escape.js";
import { formatCount, formatInterval, formatP, formatSigned, formatSignedInterval, formatWtl, metricDecimals } from "./format.js";
import { toldApart, verdictWords } from "./recommendation.js";
import type { ExperimentView } from "./section-providers.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";
import { comparisonVerdict } from "./verdict.js";

/** The analysis of a view's sweep, with the reports' statistics seed; undefined without a sweep. */
export function sweepAnalysisOf(view: ExperimentView): SweepAnalysis | undefined {
  return analyseSweep(view.results, DEFAULT_SUMMARY_SEED);
}

/** How the sweep was run and chosen, in one paragraph. */
function sweepSetup(analysis: SweepAnalysis): string {
  const { sweep } = analysis;
  const objective = sweep.objective.tokenPenalty === 0 ? code(sweep.objective.metric) : `${code(sweep.objective.metric)} − ${sweep.objective.tokenPenalty} × tokens`;
  const evaluation =
    sweep.evaluation === "one-pass"
      ? "Touch was off for the sweep, so each timeline was played once and every ask ranked under every point over the same store."
      : `Each point ran its own trials${sweep.touchOff ? "" : " (touch stays on, so later asks depend on earlier retrievals)"}.`;
  return (
    `${formatCount(sweep.points.length)} points over ${sweep.parameters.map(code).join(" × ")}, chosen by ${objective} ` +
    `with ${sweep.selection.folds.length}-fold cross-validation by scenario (fold seed ${sweep.foldSeed}): each fold's choice is made on the other folds ` +
    `and scored on its own asks. ${evaluation}`
  );
}

/**
 * A point named by its settings as the experiment file writes them, less the dotted prefix every
 * swept parameter shares (stated with the parameters): "`weights [1, 0.25, 0], relevance bm25`".
 */
function settingsOf(analysis: SweepAnalysis, id: string): string {
  const point = analysis.sweep.points.find((p) => p.id === id);
  if (point === undefined) return code(id);
  const prefix = sharedPrefix(analysis.sweep.parameters);
  return code(describeValues(Object.fromEntries(Object.entries(point.values).map(([path, value]) => [path.slice(prefix.length), value]))));
}

/** "score." when every path starts with it; a path is never emptied. */
function sharedPrefix(paths: readonly string[]): string {
  const heads = paths.map((path) => path.split(".").slice(0, -1));
  const shared: string[] = [];
  for (let i = 0; heads.every((h) => i < h.length && h[i] === heads[0][i]); i++) shared.push(heads[0][i]);
  return shared.map((part) => `${part}.`).join("");
}

/** The points the folds chose, each by its settings, most chosen first: "`…` (3 of 5), `…` (2 of 5)". */
function foldChoices(analysis: SweepAnalysis, times: (folds: number) => string): string {
  return analysis.chosenCounts.map((c) => `${settingsOf(analysis, c.id)} ${times(c.folds)}`).join(", ");
}

/** The relevance backend(s) the held-out choice ranks by: those of the points the folds chose. */
function choiceRelevance(analysis: SweepAnalysis): string {
  const { sweep } = analysis;
  const backends = analysis.chosenCounts.map(({ id }) => {
    const value = sweep.points.find((p) => p.id === id)?.values["score.relevance"];
    return typeof value === "string" ? value : sweep.base.score.relevance;
  });
  return [...new Set(backends)].join("/");
}

function heldOutSentence(analysis: SweepAnalysis, experiment: string): string {
  const { heldOut, training, optimism, sweep } = analysis;
  const folds = sweep.selection.folds.length;
  return (
    `Held-out score of the choice: ${formatInterval(heldOut)} over ${formatCount(heldOut.nItems)} asks in ${formatCount(heldOut.nClusters)} scenario clusters; ` +
    `training score ${formatNumber(training)}, optimism gap (training − held-out) ${formatSigned(optimism)}. The folds chose ${foldChoices(analysis, (n) => `(${n} of ${folds})`)}. ` +
    `Chosen on every ask: ${settingsOf(analysis, sweep.selection.chosen)} (point ${code(sweep.selection.chosen)}), ` +
    `in-sample ${formatNumber(sweep.selection.chosenScore)}, written to ${code(presetPath(experiment))}.`
  );
}

function comparisonTable(analysis: SweepAnalysis, full: boolean): string {
  const columns = full
    ? ["Versus", { header: "Its mean", align: "right" as const }, { header: "Held-out − it [95% CI per comparison]", align: "right" as const }, { header: "p", align: "right" as const }, { header: "MDE", align: "right" as const }, { header: "W/T/L", align: "right" as const }]
    : ["Versus", { header: "Its mean", align: "right" as const }, { header: "Held-out − it [95% CI per comparison]", align: "right" as const }, { header: "p", align: "right" as const }];
  return markdownTable(
    columns,
    analysis.comparisons.map(({ ablation, mean, comparison }) => {
      const diff = { mean: comparison.meanDiff, lo: comparison.lo, hi: comparison.hi, n: comparison.n };
      const row = [code(ablation), formatNumber(mean), formatSignedInterval(diff), formatP(comparison.p)];
      // No MDE when se is 0: there is no variance to scale one by.
      return full ? [...row, comparison.mde === undefined ? EMPTY_CELL : formatNumber(comparison.mde), formatWtl(comparison)] : row;
    }),
  );
}

/** The sweep's part of EVALUATION.md: how it chose, the held-out winner, and how it compares. */
export function sweepSection(_context: unknown, view: ExperimentView): string {
  const analysis = sweepAnalysisOf(view);
  if (analysis === undefined) return "";
  return [
    "### Sweep",
    sweepSetup(analysis),
    heldOutSentence(analysis, view.results.experiment.name),
    comparisonTable(analysis, false),
    `Paired over the same asks, clustered by scenario, uncorrected. Every fold and every point: ${code(appendixPath(view.results.experiment.name))}.`,
  ].join("\n\n");
}

/** The folds, each with the point it chose and its training and held-out scores. */
function foldsTable(analysis: SweepAnalysis): string {
  return markdownTable(
    ["Fold", "Held out", "Chosen", { header: "Training", align: "right" }, { header: "Held-out", align: "right" }, { header: "Optimism", align: "right" }, { header: "Asks", align: "right" }],
    analysis.sweep.selection.folds.map((f, i) => [
      String(i + 1),
      f.heldOut.map(code).join(", "),
      settingsOf(analysis, f.chosen),
      formatNumber(f.training),
      formatNumber(f.heldOutScore),
      formatSigned(f.training - f.heldOutScore),
      formatCount(f.items),
    ]),
  );
}

/** The figures FAILURE_ANALYSIS.md quotes for a sweep: the held-out choice, its comparisons and its folds. */
export function renderSweepFigures(view: ExperimentView): string {
  const analysis = sweepAnalysisOf(view);
  if (analysis === undefined) return "";
  return [
    `From ${code(resultsPath(view.results.experiment.name))}: ${sweepSetup(analysis)}`,
    heldOutSentence(analysis, view.results.experiment.name),
    comparisonTable(analysis, true),
    foldsTable(analysis),
  ].join("\n\n");
}

/** The sweep's part of the appendix: every fold's choice, the comparisons in full, every point. */
export function renderSweepAppendix(view: ExperimentView): string {
  const analysis = sweepAnalysisOf(view);
  if (analysis === undefined) return "";
  const { sweep, means } = analysis;
  const chosen = new Set(sweep.selection.folds.map((f) => f.chosen));
  const points = markdownTable(
    ["Point", "What it changes", { header: "Mean over every ask", align: "right" }, "Chosen"],
    sweep.points.map((p) => [
      code(p.id),
      escapeProse(p.label),
      formatNumber(means.get(p.id)!),
      [p.id === sweep.selection.chosen ? "on every ask" : "", chosen.has(p.id) ? "by a fold" : ""].filter((s) => s !== "").join(", "),
    ]),
  );
  return [
    "## Sweep",
    sweepSetup(analysis),
    heldOutSentence(analysis, view.results.experiment.name),
    "### Folds",
    foldsTable(analysis),
    "### The held-out choice versus the ablations",
    "Paired over the same asks (each ask's seeds averaged), clustered by scenario, uncorrected; MDE is the minimum detectable effect at 80% power; W/T/L counts asks.",
    comparisonTable(analysis, true),
    "### Points",
    "Each point's mean objective over every ask. A point fixed in advance is scored without bias on them; only the best of many is flattered, which the folds measure.",
    points,
  ].join("\n\n");
}

/** A comparison the sweep analysis made (held-out choice − an ablation, uncorrected) in the summary's shape. */
function perComparison(c: ClusteredComparison): Comparison {
  return {
    diff: { mean: c.meanDiff, lo: c.lo, hi: c.hi, n: c.n, nItems: c.nItems, nClusters: c.nClusters },
    p: c.p,
    pHolm: c.p,
    significant: c.p < SIGNIFICANCE_LEVEL,
    family: PER_COMPARISON,
    comparable: true,
    mde: c.mde,
    wins: c.wins,
    ties: c.ties,
    losses: c.losses,
  };
}

/**
 * The findings of a sweep: what to use, then the held-out choice against each ordinary ablation.
 * The recommendation is the sweep's choice when its held-out score is the best mean, named by its
 * settings; otherwise the best ablation, if it beats the default after Holm (from `summary`), with
 * the held-out choice against it; otherwise the default.
 */
export function sweepFinding(results: ExperimentView["results"], summary: ExperimentSummary): string[] | undefined {
  const analysis = analyseSweep(results, DEFAULT_SUMMARY_SEED);
  if (analysis === undefined) return undefined;
  const { heldOut, comparisons, training, optimism, sweep } = analysis;
  const { experiment } = results;
  const metric = sweep.objective.metric;
  const d = metricDecimals(metric);
  const choice = choiceRelevance(analysis);
  const crossing = (ablation: string) => crossingLabel(choice, relevanceOf(experiment, ablation));
  // Its comparison with every ablation is in the experiment's table (see renderSweepFamily).
  const evidence =
    `The choice among ${formatCount(sweep.points.length)} points, made by ${sweep.selection.folds.length}-fold cross-validation over scenarios, scores ` +
    `${formatInterval(heldOut)} on ${code(metric)} held out (training ${formatNumber(training)}, optimism ${formatSigned(optimism)}); the folds chose ${foldChoices(analysis, (n) => `×${n}`)}.`;

  const lead = `${code(experiment.name)}: `;
  const objective = `on ${code(metric)}${sweep.objective.tokenPenalty === 0 ? "" : ` − ${sweep.objective.tokenPenalty} × tokens`}`;
  const bestAblation = [...comparisons].sort((a, b) => b.mean - a.mean)[0];
  const vsDefault = comparisons.find((c) => c.ablation === experiment.baseline);
  const chosen = `the sweep's choice, ${settingsOf(analysis, sweep.selection.chosen)} (${code(presetPath(experiment.name))})`;
  if (bestAblation === undefined || heldOut.mean > bestAblation.mean) {
    const runnerUp = bestAblation === undefined ? "" : `, and ${againstTold(bestAblation, bestAblation === vsDefault ? "the default" : "the best ablation")}`;
    const versusDefault = vsDefault === undefined || vsDefault === bestAblation ? "" : `: ${againstTold(vsDefault, "the default")}`;
    return [`${lead}use ${chosen} ${objective}, which scores ${formatInterval(heldOut)} held out${versusDefault}${runnerUp}.`, evidence];
  }
  const held = perComparison(bestAblation.comparison);
  const heldText = `the sweep's held-out choice scores ${formatSignedInterval(held.diff, d)} against it${crossing(bestAblation.ablation) === "" ? "" : ` (${crossing(bestAblation.ablation)})`}, ${toldApart(held, metric)}`;
  if (bestAblation.ablation === experiment.baseline) return [`${lead}keep the default ${code(experiment.baseline)} ${objective}: ${heldText}.`, evidence];
  const vs = findRow(summary, bestAblation.ablation, metric, ALL_GROUP).vsBaseline!;
  const family = summary.families.find((f) => f.name === vs.family)?.size ?? 1;
  const verdict = [crossingLabel(relevanceOf(experiment, bestAblation.ablation), relevanceOf(experiment, experiment.baseline)), verdictWords(vs, metric, family)].filter(Boolean).join("; ");
  const action = comparisonVerdict(vs, metric) === "significant" ? `use ${code(bestAblation.ablation)}` : `keep the default ${code(experiment.baseline)}; the best mean is ${code(bestAblation.ablation)}'s`;
  return [
    // The summary compares on the metric alone; with a token penalty the objective is another figure, so it is named.
    `${lead}${action} ${objective} (${formatNumber(bestAblation.mean, d)}): ${formatSignedInterval(vs.diff, d)}${sweep.objective.tokenPenalty === 0 ? "" : ` on ${code(metric)} alone`} over the default ${code(experiment.baseline)} (${verdict}), and ${heldText}.`,
    evidence,
  ];

  /** "+0.490 [+0.452, +0.528] over the default `full` (across …), which can be told apart (p …, per comparison)". */
  function againstTold(c: (typeof comparisons)[number], role: string): string {
    const pair = perComparison(c.comparison);
    const label = crossing(c.ablation);
    return `${formatSignedInterval(pair.diff, d)} over ${role}, ${code(c.ablation)}${label === "" ? "" : ` (${label})`}, ${toldApart(pair, metric)}`;
  }
}

/**
 * An experiment that sweeps, in EVALUATION.md: one row per run (ask protocol) with the held-out
 * choice, its optimism and its comparisons; its ablations, categories, folds, points and charts are
 * in each run's appendix, so that EVALUATION.md stays short.
 */
export function renderSweepFamily(views: readonly ExperimentView[]): string {
  const analysed = views.map((view) => ({ view, analysis: sweepAnalysisOf(view)! }));
  const [first] = analysed;
  const ablations = first.analysis.comparisons.map((c) => c.ablation);
  const rows = analysed.map(({ view, analysis }) => [
    code(view.results.experiment.protocol ?? view.results.experiment.name),
    formatInterval(analysis.heldOut),
    formatNumber(analysis.training),
    formatSigned(analysis.optimism),
    ...analysis.comparisons.map(({ ablation, comparison: c }) => {
      const [mine, theirs] = [choiceRelevance(analysis), relevanceOf(view.results.experiment, ablation)];
      const crossing = crossingLabel(mine, theirs) === "" ? "" : `; ${mine} against ${theirs}`;
      return `${formatSignedInterval({ mean: c.meanDiff, lo: c.lo, hi: c.hi, n: c.n })} (p ${formatP(c.p)}${crossing})`;
    }),
  ]);
  const appendices = views.map((v) => code(appendixPath(v.results.experiment.name))).join(", ");
  return [
    `## ${escapeProse(first.view.results.experiment.family)}`,
    `${sweepSetup(first.analysis)} Per run (ask protocol), the held-out score of the choice over ${formatCount(first.analysis.heldOut.nItems)} asks in ` +
      `${formatCount(first.analysis.heldOut.nClusters)} scenario clusters, the folds' training score, the optimism gap, and the ` +
      `held-out choice minus each ablation on the same asks (clustered, uncorrected; "bm25 against words" marks a comparison across relevance backends). ` +
      `What the folds chose is in the findings; ablations, folds, every point and the charts: ${appendices}.`,
    markdownTable(
      ["Run", { header: "Held-out [95% CI]", align: "right" }, { header: "Training", align: "right" }, { header: "Optimism", align: "right" }, ...ablations.map((a) => ({ header: `− ${a}`, align: "right" as const }))],
      rows,
    ),
  ].join("\n\n");
}
