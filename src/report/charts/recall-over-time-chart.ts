import type { TopLevelSpec } from "vega-lite";
import { metricValue } from "../../harness/metrics.js";
import type { AskResult, ExperimentResults } from "../../harness/results/types.js";
import { CHART_CONFIG, ablationColor } from "./theme.js";

interface TimePoint {
  scenario: string;
  ablation: string;
  /** Simulated days from the scenario's start to the asks of this point. */
  day: number;
  recall: number;
  asks: string;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Recall over simulated time: whether a memory system keeps finding old facts as the clock moves
 * and the store grows is a question about time, which the pooled means hide. Only scenarios
 * whose asks happen at two or more moments have a timeline (a benchmark that asks everything at
 * the end has none); asks at one moment share a point.
 */
export function recallOverTimeChart(results: ExperimentResults): TopLevelSpec | null {
  const k = Math.min(...results.experiment.k);
  if (!Number.isFinite(k)) return null;
  const metric = `recall_any@${k}`;
  const timelines = results.experiment.scenarios.filter((s) => new Set(s.asks.map((a) => a.hour)).size >= 2);
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
    const hours = [...new Set(scenario.asks.map((a) => a.hour))].sort((a, b) => a - b);
    for (const ablation of ablations) {
      const byAsk = perAsk.get(scenario.name)?.get(ablation);
      if (!byAsk) continue;
      for (const hour of hours) {
        const ids = scenario.asks.filter((a) => a.hour === hour && byAsk.has(a.id)).map((a) => a.id);
        if (ids.length === 0) continue;
        values.push({
          scenario: scenario.name,
          ablation,
          day: Math.round((hour / 24) * 1000) / 1000,
          recall: mean(ids.map((id) => mean(byAsk.get(id)!))),
          asks: ids.join(", "),
        });
      }
    }
  }
  if (values.length === 0) return null;
  const scenarios = timelines.map((s) => s.name).filter((name) => values.some((v) => v.scenario === name));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${results.experiment.name}: ${metric} over simulated time`,
      subtitle: `Each point is the asks at one moment of a scenario's clock, mean over ${results.experiment.seeds.length} seed(s)`,
    },
    config: CHART_CONFIG,
    data: { values },
    facet: { field: "scenario", type: "nominal", sort: scenarios, columns: 2, title: null, header: { labelFontWeight: "bold" } },
    spec: {
      width: 320,
      height: 180,
      mark: { type: "line", point: { filled: true, size: 40 }, strokeWidth: 2, interpolate: "linear" },
      encoding: {
        x: { field: "day", type: "quantitative", title: "simulated time (days since the scenario's start)" },
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
