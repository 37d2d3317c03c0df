/**
 * A sweep in the reports: in EVALUATION.md, the held-out winner against the ordinary ablations
 * in one compact table; in the appendix, every fold, every comparison and every point.
 */
import { analyseSweep, type SweepAnalysis } from "../../harness/sweep/analysis.js";
import { DEFAULT_SUMMARY_SEED } from "../../harness/summary/summarise.js";
import { appendixPath, presetPath, resultsPath } from "../paths.js";
import { code, escapeProse } from "./escape.js";
import { formatCount, formatInterval, formatP, formatSigned, formatSignedInterval, formatWtl } from "./format.js";
import type { ExperimentView } from "./section-providers.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";

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

function pointLabel(analysis: SweepAnalysis, id: string): string {
  return analysis.sweep.points.find((p) => p.id === id)?.label ?? "";
}

function heldOutSentence(analysis: SweepAnalysis, experiment: string): string {
  const { heldOut, training, optimism, chosenCounts, sweep } = analysis;
  const folds = sweep.selection.folds.length;
  const choices = chosenCounts.map((c) => `${code(c.id)} (${c.folds} of ${folds})`).join(", ");
  return (
    `Held-out score of the choice: ${formatInterval(heldOut)} over ${formatCount(heldOut.nItems)} asks in ${formatCount(heldOut.nClusters)} scenario clusters; ` +
    `training score ${formatNumber(training)}, optimism gap (training − held-out) ${formatSigned(optimism)}. The folds chose ${choices}. ` +
    `Chosen on every ask: ${code(sweep.selection.chosen)} (${escapeProse(pointLabel(analysis, sweep.selection.chosen))}), ` +
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
      code(f.chosen),
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

/** The findings sentence of a sweep: the held-out choice against each ordinary ablation. */
export function sweepFinding(results: ExperimentView["results"]): string | undefined {
  const analysis = analyseSweep(results, DEFAULT_SUMMARY_SEED);
  if (analysis === undefined) return undefined;
  const { heldOut, comparisons, training, optimism, sweep } = analysis;
  const versus = comparisons
    .map(({ ablation, comparison: c }) => `${formatSignedInterval({ mean: c.meanDiff, lo: c.lo, hi: c.hi, n: c.n })} against ${code(ablation)} (p ${formatP(c.p)})`)
    .join(", ");
  return (
    `${code(results.experiment.name)}: the choice among ${formatCount(sweep.points.length)} points, made by ${sweep.selection.folds.length}-fold cross-validation over scenarios, scores ` +
    `${formatInterval(heldOut)} on ${code(sweep.objective.metric)} held out: ${versus}; the folds' training score is ${formatNumber(training)} (optimism ${formatSigned(optimism)}).`
  );
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
    analysis.chosenCounts.map((c) => `${code(c.id)} ×${c.folds}`).join(", "),
    ...analysis.comparisons.map(({ comparison: c }) => `${formatSignedInterval({ mean: c.meanDiff, lo: c.lo, hi: c.hi, n: c.n })} (p ${formatP(c.p)})`),
  ]);
  const appendices = views.map((v) => code(appendixPath(v.results.experiment.name))).join(", ");
  return [
    `## ${escapeProse(first.view.results.experiment.family)}`,
    `${sweepSetup(first.analysis)} Per run (ask protocol), the held-out score of the choice over ${formatCount(first.analysis.heldOut.nItems)} asks in ` +
      `${formatCount(first.analysis.heldOut.nClusters)} scenario clusters, the folds' training score, the optimism gap, the points the folds chose, and the ` +
      `held-out choice minus each ablation on the same asks (clustered, uncorrected). Ablations, folds, every point and the charts: ${appendices}.`,
    markdownTable(
      ["Run", { header: "Held-out [95% CI]", align: "right" }, { header: "Training", align: "right" }, { header: "Optimism", align: "right" }, "Folds chose", ...ablations.map((a) => ({ header: `− ${a}`, align: "right" as const }))],
      rows,
    ),
  ].join("\n\n");
}
