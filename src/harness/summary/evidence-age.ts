/**
 * Recall by the age of the evidence when it is asked for: whether a memory system still finds a
 * fact written months ago is a question about time that the overall mean hides.
 */
import { isUnitBounded, metricReader } from "../metrics.js";
import type { ExperimentResults } from "../results/types.js";
import { createRng } from "../stats/index.js";
import { alignResults } from "./align.js";
import { DEFAULT_BOOTSTRAP_RESAMPLES, meanOf, unitLabels } from "./summarise.js";
import type { Interval } from "./types.js";

/** Age bins, in days from the evidence being written to the ask: a day, a week, a month, a quarter, a half-year. */
export const AGE_BINS: readonly { label: string; upTo: number }[] = [
  { label: "< 1 day", upTo: 1 },
  { label: "1–7 days", upTo: 7 },
  { label: "1–4 weeks", upTo: 28 },
  { label: "1–3 months", upTo: 91 },
  { label: "3–6 months", upTo: 182 },
  { label: "≥ 6 months", upTo: Number.POSITIVE_INFINITY },
];

export interface AgeRow {
  ablation: string;
  bin: string;
  value: Interval;
}

/**
 * Days from the newest of an ask's expected memories to the ask, or undefined when the results
 * do not say when they were written. The newest is the one any-recall finds most easily, so an
 * ask counts as old only when all its evidence is.
 */
export function evidenceAgeDays(ask: { hour: number; expectHours?: (number | null)[] }): number | undefined {
  const written = (ask.expectHours ?? []).filter((h): h is number => h !== null);
  if (written.length === 0) return undefined;
  return Math.max(0, ask.hour - Math.max(...written)) / 24;
}

export function ageBin(days: number): string {
  return AGE_BINS.find((b) => days < b.upTo)!.label;
}

/**
 * The metric's mean per ablation and age bin, with intervals as the summary computes them (the
 * seeds of an ask averaged, clustered as the experiment declares). Bins no ask falls in are left out.
 */
export function evidenceAgeRows(results: ExperimentResults, metric: string, options: { seed: number; resamples?: number }): AgeRow[] {
  const { experiment } = results;
  const ages = new Map(experiment.scenarios.flatMap((s) => s.asks.map((a) => [`${s.name}\u0000${a.id}`, evidenceAgeDays(a)] as const)));
  if ([...ages.values()].every((days) => days === undefined)) return [];
  const aligned = alignResults(results);
  const labels = unitLabels(aligned.keys, experiment.cluster);
  const bins = aligned.keys.map((k) => {
    const days = ages.get(`${k.scenario}\u0000${k.ask}`);
    return days === undefined ? undefined : ageBin(days);
  });
  const root = createRng(options.seed).fork(`evidence-age\u0000${metric}`);
  const rows: AgeRow[] = [];
  const read = metricReader(metric);
  for (const { label: bin } of AGE_BINS) {
    for (const ablation of experiment.ablations.map((a) => a.name)) {
      const askResults = aligned.byAblation.get(ablation)!;
      const positions = bins.flatMap((b, i) => (b === bin ? [i] : []));
      const values = positions.map((i) => read(askResults[i]!));
      if (values.every((v) => v === null)) continue;
      const value = meanOf(values, (present) => labels.restrict(present.map((p) => positions[p]!)), {
        seed: root.fork("mean"),
        resamples: options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES,
        bounded: isUnitBounded(metric),
      });
      rows.push({ ablation, bin, value });
    }
  }
  return rows;
}
