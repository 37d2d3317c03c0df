import type { TopLevelSpec } from "vega-lite";
import { relevanceOf } from "../markdown/crossing.js";
import type { ExperimentInfo } from "../../harness/results/types.js";
import { adjustedPLabel, adjustmentName } from "../../harness/summary/adjustment.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { panelTitle } from "./metrics-chart.js";
import { panelWidth, rowPanels } from "./panel-width.js";
import { CHART_CONFIG } from "./theme.js";
import { VERDICTS, verdictOf } from "./verdict.js";

const MAX_COLUMNS = 3;
const ROW_STEP = 17;
/** Room for the longest ablation names with their backend beside them. */
const LABEL_LIMIT = 280;
/** Strong, pale and grey: the eye goes to what survived Holm, then to leads, and past the rest. */
const VERDICT_COLORS = ["#1f5fa8", "#e08a2e", "#9a9a9a"];

/**
 * How an ablation's comparison with the baseline is to be read, when it is more than the
 * ablation's own change: another relevance backend, or a system that is not a recollect policy.
 */
export function crossingNote(experiment: ExperimentInfo, ablation: string): string | null {
  const mine = experiment.ablations.find((a) => a.name === ablation);
  const theirs = relevanceOf(experiment, experiment.baseline);
  if (mine?.policy === undefined) return mine?.system === undefined ? null : "system";
  const backend = mine.policy.score.relevance;
  return theirs !== undefined && backend !== theirs ? backend : null;
}

/**
 * The chart a reader should see first: for each headline metric, every ablation's difference
 * from the baseline with its 95% interval, against a line at zero, coloured by what the
 * comparison lets one conclude. A row whose difference is also the difference of a relevance
 * backend (or of another system) says so in its label.
 */
export function forestChart(summary: ExperimentSummary, experiment: ExperimentInfo): TopLevelSpec | null {
  const label = (ablation: string) => {
    const note = crossingNote(experiment, ablation);
    return note === null ? ablation : `${ablation} [${note}]`;
  };
  const rows = summary.rows.flatMap((row) => {
    if (row.group !== "all" || !summary.headline.includes(row.metric) || row.vsBaseline === undefined) return [];
    const verdict = verdictOf(row.vsBaseline);
    if (verdict === null || !Number.isFinite(row.vsBaseline.diff.mean)) return [];
    const { diff, p, pHolm } = row.vsBaseline;
    return [{ metric: row.metric, panel: panelTitle(row.metric), ablation: row.ablation, label: label(row.ablation), diff: diff.mean, lo: diff.lo, hi: diff.hi, verdict, p, pHolm }];
  });
  if (rows.length === 0) return null;
  // The headline comparisons over all asks form one family, so one adjustment names them all.
  const family = summary.rows.find((r) => r.group === "all" && summary.headline.includes(r.metric) && r.vsBaseline?.comparable)?.vsBaseline ?? {};
  const metrics = summary.headline.filter((m) => rows.some((r) => r.metric === m));
  const ablations = summary.ablations.filter((a) => rows.some((r) => r.ablation === a));
  const incomparable = summary.headline.flatMap((metric) => {
    const names = summary.rows.filter((r) => r.group === "all" && r.metric === metric && r.vsBaseline?.comparable === false).map((r) => r.ablation);
    return names.length === 0 ? [] : [`Not comparable on ${metric} (its ranks count within other sections): ${names.join(", ")}.`];
  });
  const crossing = ablations.some((a) => crossingNote(experiment, a) !== null);
  const columns = Math.min(MAX_COLUMNS, metrics.length);
  const width = panelWidth({ labels: ablations.map(label), columns, min: 150, max: 300, labelLimit: LABEL_LIMIT });
  const y = { field: "label", type: "nominal", sort: ablations.map(label), title: null, axis: { labelLimit: LABEL_LIMIT } } as const;
  const x = { type: "quantitative", title: `Δ vs ${summary.baseline}, 95% interval`, scale: { zero: true, nice: true } } as const;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: difference from ${summary.baseline}, the baseline`,
      subtitle: [
        `Each row: the ablation's mean minus ${summary.baseline}'s over the same ${summary.unit.label}, with its 95% interval per comparison.`,
        `Colour: significant after ${adjustmentName(family)}'s adjustment over the family, significant per comparison only, or no difference detected.`,
        ...(crossing ? [`[bm25], [embedding], …: ranks by another relevance backend than ${summary.baseline} (${relevanceOf(experiment, summary.baseline) ?? "none"}); [system]: not a recollect policy.`,
          "Such a Δ crosses backends: it is the backend's or the system's as much as a setting's."] : []),
        ...incomparable,
      ],
    },
    config: CHART_CONFIG,
    data: { values: rows },
    ...rowPanels({ field: "panel", type: "nominal", sort: metrics.map(panelTitle), title: null }, columns, width, ROW_STEP, [
      { mark: { type: "rule", color: "#555", strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: "quantitative" } } },
      {
        mark: { type: "rule", strokeWidth: 2.5 },
        encoding: { y, x: { field: "lo", ...x }, x2: { field: "hi" }, color: { field: "verdict", type: "nominal", scale: { domain: [...VERDICTS], range: VERDICT_COLORS }, title: null } },
      },
      {
        mark: { type: "point", filled: true, size: 60, opacity: 1 },
        encoding: {
          y,
          x: { field: "diff", ...x },
          color: { field: "verdict", type: "nominal", scale: { domain: [...VERDICTS], range: VERDICT_COLORS }, title: null },
          tooltip: [
            { field: "ablation", type: "nominal" },
            { field: "metric", type: "nominal" },
            { field: "diff", type: "quantitative", format: "+.3f", title: "Δ" },
            { field: "lo", type: "quantitative", format: "+.3f", title: "95% lo" },
            { field: "hi", type: "quantitative", format: "+.3f", title: "95% hi" },
            { field: "p", type: "quantitative", format: ".2g" },
            { field: "pHolm", type: "quantitative", format: ".2g", title: adjustedPLabel(family) },
            { field: "verdict", type: "nominal" },
          ],
        },
      },
    ]),
    resolve: { scale: { x: "independent", y: "shared" }, axis: { x: "independent" } },
  } as TopLevelSpec;
}
