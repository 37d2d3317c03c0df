import type { Experiment } from "../experiment/load.js";
import { retrievalPolicySchema } from "../../memory/index.js";
import { headlineMetrics } from "../experiment/schema.js";
import type { ScenarioSpec } from "../scenario/schema.js";
import { writeBackId } from "../scenario/validate.js";
import { type AskInfo, type ExperimentResults, type LatencySummary, type Manifest, RESULTS_FORMAT, type ScenarioInfo, type Timing, type Trial } from "./types.js";
import { byCodeUnit } from "../../shared/order.js";

export function scenarioInfo(experiment: Experiment): ScenarioInfo[] {
  return [...experiment.scenarios]
    .sort((a, b) => byCodeUnit(a.spec.name, b.spec.name))
    .map(({ spec }) => ({
      name: spec.name,
      description: spec.description.trim(),
      targets: spec.targets,
      asks: askInfo(spec),
    }));
}

function askInfo(spec: ScenarioSpec): AskInfo[] {
  const asks: AskInfo[] = [];
  const hours = (ms: number) => Math.round((ms / 3_600_000) * 1e6) / 1e6;
  const written = new Map<string, number>();
  let elapsed = 0;
  for (const step of spec.steps) {
    elapsed += step.advance ?? 0;
    for (const memory of step.remember ?? []) written.set(memory.id, elapsed);
    if (!step.ask) continue;
    const ask = step.ask;
    asks.push({
      id: ask.id,
      hour: hours(elapsed),
      query: ask.query,
      expect: ask.expect,
      required: ask.required ?? ask.expect,
      stale: ask.stale,
      ...(ask.category !== undefined ? { category: ask.category } : {}),
      expectHours: ask.expect.map((id) => (written.has(id) ? hours(written.get(id)!) : null)),
    });
    written.set(writeBackId(ask.id), elapsed);
  }
  return asks;
}

/**
 * How many of the experiment's memories (scenario memories and distractor pools) carry an
 * importance rating of their own, and the noise each kind got: a report says which ratings are real.
 */
export function importanceInfo(experiment: Experiment): ExperimentResults["experiment"]["importance"] {
  let rated = 0;
  let unrated = 0;
  for (const { spec } of experiment.scenarios) {
    for (const m of [...spec.steps.flatMap((step) => step.remember ?? []), ...spec.pool]) {
      if (m.importance === undefined) unrated++;
      else rated++;
    }
  }
  const { importanceNoise, unratedImportanceNoise } = experiment.spec.variation;
  return { rated, unrated, noise: importanceNoise, unratedNoise: unratedImportanceNoise };
}

/** `file` is the experiment file as the results should name it (see ExperimentInfo.file). */
export function buildResults(experiment: Experiment, trials: Trial[], manifest: Manifest, file = experiment.file): ExperimentResults {
  const { spec } = experiment;
  return {
    format: RESULTS_FORMAT,
    experiment: {
      name: spec.name,
      family: experiment.family,
      ...(experiment.protocol === undefined ? {} : { protocol: experiment.protocol }),
      file,
      description: spec.description.trim(),
      baseline: spec.baseline,
      ablations: experiment.ablations.map((a) => ({
        name: a.name,
        description: a.description,
        ...(a.note === undefined ? {} : { note: a.note }),
        // Parsed so that keys come in the schema's order, as they do when the file is read back.
        ...(a.policy === undefined ? {} : { policy: retrievalPolicySchema.parse(a.policy) }),
        ...(a.info === undefined ? {} : { system: a.info, budget: a.budget }),
      })),
      seeds: spec.seeds,
      k: spec.k,
      matchSource: spec.matchSource,
      cluster: spec.cluster,
      headline: headlineMetrics(spec),
      importance: importanceInfo(experiment),
      scenarios: scenarioInfo(experiment),
      ...(experiment.importStats ? { importStats: experiment.importStats } : {}),
    },
    manifest,
    trials: trials.map(({ latency: _, ...trial }) => trial),
    ...(trials.some((t) => t.latency !== undefined) ? { timing: timingOf(experiment, trials) } : {}),
  };
}

/** Each ablation's or system's call latencies over all its trials: their count, median and 95th percentile. */
export function timingOf(experiment: Pick<Experiment, "ablations">, trials: readonly Trial[]): Timing {
  const timing: Timing = {};
  for (const { name } of experiment.ablations) {
    const mine = trials.filter((t) => t.ablation === name && t.latency !== undefined);
    if (mine.length === 0) continue;
    timing[name] = {
      write: percentiles(mine.flatMap((t) => t.latency!.write)),
      retrieve: percentiles(mine.flatMap((t) => t.latency!.retrieve)),
    };
  }
  return timing;
}

/** Nearest-rank percentiles, in milliseconds to the microsecond. */
function percentiles(values: number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length === 0 ? 0 : Math.round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] * 1000) / 1000);
  return { calls: sorted.length, p50: at(0.5), p95: at(0.95) };
}
