/** Latency summaries for the benchmark. */

export interface Latency {
  /** How many timed runs. */
  n: number;
  p50: number;
  p95: number;
  mean: number;
}

/** Nearest-rank percentile of already sorted values (p in [0, 100]). */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarise(samplesMs: readonly number[]): Latency {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: percentileSorted(sorted, 50), p95: percentileSorted(sorted, 95), mean };
}

/**
 * Times `run(i)` for i = 0, 1, … until `count` runs or until `budgetMs` has passed (at least
 * `minRuns`), after `warmup` untimed runs. The budget keeps the slowest configurations to
 * minutes on a small machine; the report says how many runs each figure rests on.
 */
export function timeRuns(
  run: (i: number) => void,
  options: { count: number; budgetMs: number; warmup?: number; minRuns?: number },
): Latency {
  const warmup = options.warmup ?? 3;
  for (let i = 0; i < warmup; i++) run(i);
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < options.count; i++) {
    const t = performance.now();
    run(warmup + i);
    samples.push(performance.now() - t);
    if (performance.now() - started > options.budgetMs && samples.length >= (options.minRuns ?? 5)) break;
  }
  return summarise(samples);
}
