import type { TopLevelSpec } from "vega-lite";
import { metricValue } from "../../harness/metrics.js";
import type { AskResult, ExperimentResults } from "../../harness/results/types.js";
import { CHART_CONFIG, ablationColor } from "./theme.js";

/** Long dataset timelines are averaged over this many windows so the lines stay readable. */
const MAX_POINTS = 40;

interface TimePoint {
  scenario: string;
  ablation: string;
  /** 1-based position of the ask (or the middle of its window) in the scenario's timeline. */
  position: number;
  recall: number;
  asks: string;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Recall of each ask in timeline order: whether a memory system keeps finding old facts as the
 * store grows is a question about time, which the pooled means hide.
 */
export function recallOverTimeChart(results: ExperimentResults): TopLevelSpec | null {
  const k = Math.min(...results.experiment.k);
  if (!Number.isFinite(k)) return null;
  const metric = `recall_any@${k}`;
  const timelines = results.experiment.scenarios.filter((s) => s.asks.length >= 2);
  if (timelines.length === 0) return null;

  // scenario → ablation → ask → one value per seed
  const perAsk = new Map<string, Map<string, Map<string, number[]>>>();
  for (const trial of results.trials) {
    const byAblation = perAsk.get(trial.scenario) ?? new Map<string, Map<string, number[]>>();
    perAsk.set(trial.scenario, byAblation);
    const byAsk = byAblation.get(trial.ablation) ?? new Map<string, number[]>();
    byAblation.set(trial.ablation, byAsk);
    for (const result of trial.asks as AskResult[]) {
      const value = metricValue(result, metric);
      if (value === null) continue;
      const list = byAsk.get(result.ask) ?? [];
      list.push(value);
      byAsk.set(result.ask, list);
    }
  }

  const ablations = results.experiment.ablations.map((a) => a.name);
  const values: TimePoint[] = [];
  for (const scenario of timelines) {
    const askIds = scenario.asks.map((a) => a.id);
    const windows = Math.min(MAX_POINTS, askIds.length);
    for (const ablation of ablations) {
      const byAsk = perAsk.get(scenario.name)?.get(ablation);
      if (!byAsk) continue;
      for (let w = 0; w < windows; w++) {
        const from = Math.floor((w * askIds.length) / windows);
        const to = Math.floor(((w + 1) * askIds.length) / windows);
        const ids = askIds.slice(from, to).filter((id) => byAsk.has(id));
        if (ids.length === 0) continue;
        values.push({
          scenario: scenario.name,
          ablation,
          position: (from + 1 + to) / 2,
          recall: mean(ids.map((id) => mean(byAsk.get(id)!))),
          asks: ids.length > 3 ? `${ids[0]} … ${ids[ids.length - 1]} (${ids.length})` : ids.join(", "),
        });
      }
    }
  }
  if (values.length === 0) return null;
  const scenarios = timelines.map((s) => s.name).filter((name) => values.some((v) => v.scenario === name));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${results.experiment.name}: ${metric} along the timeline`,
      subtitle: `Each point is an ask in timeline order, mean over ${results.experiment.seeds.length} seed(s)`,
    },
    config: CHART_CONFIG,
    data: { values },
    facet: { field: "scenario", type: "nominal", sort: scenarios, columns: 2, title: null, header: { labelFontWeight: "bold" } },
    spec: {
      width: 320,
      height: 180,
      mark: { type: "line", point: { filled: true, size: 40 }, strokeWidth: 2, interpolate: "linear" },
      encoding: {
        x: { field: "position", type: "quantitative", title: "ask position in timeline", axis: { tickMinStep: 1, format: "d" } },
        y: { field: "recall", type: "quantitative", title: `${metric} (mean over seeds)`, scale: { domain: [0, 1] } },
        color: { field: "ablation", type: "nominal", scale: ablationColor(ablations), title: "ablation", sort: ablations },
        tooltip: [
          { field: "ablation", type: "nominal" },
          { field: "asks", type: "nominal", title: "ask" },
          { field: "recall", type: "quantitative", format: ".2f", title: metric },
        ],
      },
    },
    resolve: { scale: { x: "independent" } },
  } as TopLevelSpec;
}
