/**
 * A small experiment built by hand for the chart and HTML tests: two timeline scenarios, three
 * ablations, two seeds, gold ranks that move between ablations, and text that needs escaping.
 * Its summary is computed here with plain means so the tests do not depend on the statistics code.
 */
import { builtInAblation } from "../../fixtures/synthetic-results.js";
import { metricNames, metricValue } from "../../../src/harness/metrics.js";
import type { AskResult, ExperimentResults, ScenarioInfo, Trial } from "../../../src/harness/results/types.js";
import type { ExperimentSummary, MetricSummary, RankChange } from "../../../src/harness/summary/types.js";

export const ABLATIONS = ["full", "relevance-only", "no-decay"] as const;
const SEEDS = [1, 2];
const K = [1, 3];

function scenario(name: string, count: number, prefix: string): ScenarioInfo {
  return {
    name,
    description: `${name} scenario`,
    targets: [],
    asks: Array.from({ length: count }, (_, i) => ({
      id: `${prefix}${i + 1}`,
      hour: 24 * (i + 1),
      query: i === 1 ? `What did I say about <b>tea</b> & "coffee" on day ${i + 1}?` : `Question ${i + 1} of ${name}`,
      expect: [`${prefix}-m${i + 1}`],
      required: i % 3 === 2 ? [] : [`${prefix}-m${i + 1}`],
      stale: i === 3 ? [`${prefix}-old${i + 1}`] : [],
      category: i % 2 === 0 ? "single-hop" : "temporal",
      // Evidence six hours old at the even asks, written at the start (days old) at the odd ones.
      expectHours: [i % 2 === 0 ? 24 * (i + 1) - 6 : 0],
    })),
  };
}

/** A deterministic rank: the baseline finds early asks, the ablations lose later ones. */
function rankFor(ablation: number, ask: number, seed: number): number | null {
  if (ablation === 0) return 1 + ((ask + seed) % 2);
  if (ablation === 1) return ask >= 3 ? (ask + seed > 6 ? null : 4 + ask) : 1 + ((ask + seed) % 3);
  return 1 + ((ask * seed) % 4);
}

function askResult(info: ScenarioInfo, askIndex: number, ablation: number, seed: number): AskResult {
  const ask = info.asks[askIndex]!;
  const rank = rankFor(ablation, askIndex, seed);
  const gold = ask.expect[0]!;
  const others = Array.from({ length: 4 }, (_, i) => `${info.name}-d${i + 1}`);
  const kept = rank !== null && rank <= 4 ? [...others.slice(0, rank - 1), gold, ...others.slice(rank - 1, 3)] : others;
  const rec = ablation === 2 ? 1 : Number((0.995 ** (askIndex * 24)).toFixed(4));
  const rel = Number((0.9 - 0.1 * askIndex).toFixed(4));
  const imp = 0.5;
  const weights = ablation === 1 ? [1, 0, 0] : [1, 1, 1];
  const total = Number((weights[0]! * rel + weights[1]! * rec + weights[2]! * imp).toFixed(4));
  return {
    ask: ask.id,
    ranks: [rank],
    coverage: ask.required.length === 0 ? null : kept.includes(gold) ? 1 : 0,
    leaked: ask.stale.length > 0 && ablation === 2 ? [...ask.stale] : [],
    tokens: 40 + kept.length * 9,
    detail: {
      kept,
      sectionTokens: { semantic: 20, episodic: 20 + kept.length * 9 },
      gold: [{ id: gold, section: rank === null ? null : "episodic", rel, rec, imp, total, weights: [1, 1, 1] }],
    },
  };
}

export function handMadeResults(): ExperimentResults {
  const scenarios = [scenario("coffee-timeline", 6, "t"), scenario("corrections", 3, "c")];
  const trials: Trial[] = [];
  for (const info of scenarios) {
    for (const [a, ablation] of ABLATIONS.entries()) {
      for (const seed of SEEDS) {
        trials.push({
          scenario: info.name,
          ablation,
          seed,
          asks: info.asks.map((_, i) => askResult(info, i, a, seed)),
        });
      }
    }
  }
  return {
    format: "recollect-results/2",
    experiment: {
      name: "timeline-demo",
      family: "timeline-demo",
      file: "experiments/timeline-demo.yaml",
      description: "Does recency help on a timeline? <a test of escaping>",
      baseline: "full",
      ablations: ABLATIONS.map(builtInAblation),
      seeds: SEEDS,
      k: K,
      matchSource: false,
      cluster: "scenario",
      headline: ["recall_any@1", "coverage"],
      importance: { rated: 20, unrated: 4, noise: 1, unratedNoise: 0 },
      scenarios,
    },
    manifest: {
      gitCommit: "0000000",
      gitDirty: false,
      node: "v20.0.0",
      packages: { vega: "6.4.0" },
      tokenizerSha256: "abc",
      datasets: [],
      experimentHash: "def",
      wallTimeMs: 1,
    },
    trials,
  };
}

function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Plain means with a fixed ±0.1 band, letters in ablation order: enough shape for the reporters. */
export function handMadeSummary(results: ExperimentResults): ExperimentSummary {
  const metrics = metricNames(results.experiment.k);
  const categories = new Map<string, string>();
  for (const s of results.experiment.scenarios) for (const a of s.asks) categories.set(`${s.name}/${a.id}`, a.category ?? "none");
  const groups = ["all", ...[...new Set(categories.values())].sort()];
  const letters = ABLATIONS.map((_, i) => String.fromCharCode(97 + i));
  const rows: MetricSummary[] = [];
  for (const metric of metrics) {
    for (const group of groups) {
      const means = new Map<string, number>();
      for (const ablation of ABLATIONS) {
        const values = results.trials
          .filter((t) => t.ablation === ablation)
          .flatMap((t) =>
            t.asks
              .filter((r) => group === "all" || categories.get(`${t.scenario}/${r.ask}`) === group)
              .map((r) => metricValue(r, metric)),
          )
          .filter((v): v is number => v !== null);
        means.set(ablation, mean(values));
        const m = mean(values);
        const base = means.get("full")!;
        rows.push({
          metric,
          ablation,
          group,
          value: { mean: m, lo: Math.max(0, m - 0.1), hi: m + 0.1, n: values.length, nItems: values.length, nClusters: values.length },
          vsBaseline:
            ablation === "full"
              ? undefined
              : {
                  diff: { mean: m - base, lo: m - base - 0.1, hi: m - base + 0.1, n: values.length, nItems: values.length, nClusters: values.length },
                  p: 0.04,
                  pHolm: 0.08,
                  significant: Math.abs(m - base) > 0.3,
                  family: "all asks, headline metrics",
                  comparable: true,
                  wins: 1,
                  ties: 2,
                  losses: 3,
                },
          letter: letters[ABLATIONS.indexOf(ablation)]!,
          beats: ablation === "full" && metric.startsWith("recall") ? ["b"] : [],
        });
      }
    }
  }
  const rankChanges: RankChange[] = [];
  const seed = results.experiment.seeds[0];
  for (const trial of results.trials.filter((t) => t.seed === seed && t.ablation !== "full")) {
    const baseTrial = results.trials.find((t) => t.scenario === trial.scenario && t.seed === seed && t.ablation === "full")!;
    for (const [i, result] of trial.asks.entries()) {
      const base = baseTrial.asks[i]!;
      if (base.ranks[0] === result.ranks[0]) continue;
      const b = base.detail!.gold[0]!;
      const v = result.detail!.gold[0]!;
      rankChanges.push({
        scenario: trial.scenario,
        ask: result.ask,
        gold: b.id,
        ablation: trial.ablation,
        baselineRank: base.ranks[0] ?? null,
        ablationRank: result.ranks[0] ?? null,
        movedBy: `rec ${(v.rec! - b.rec!).toFixed(2)}`,
        baseline: { rel: b.rel!, rec: b.rec!, imp: b.imp!, total: b.total!, weights: b.weights! },
        variant: { rel: v.rel!, rec: v.rec!, imp: v.imp!, total: v.total!, weights: v.weights! },
      });
    }
  }
  return {
    experiment: results.experiment.name,
    baseline: results.experiment.baseline,
    ablations: [...ABLATIONS],
    metrics,
    headline: ["recall_any@1", "coverage"],
    groups,
    unit: { cluster: "scenario", label: "asks (seeds averaged), clustered by scenario" },
    families: [{ name: "all asks, headline metrics", size: 4, adjustment: "holm" }],
    rows,
    designedFailures: [],
    rankChanges,
  };
}
