/** Latency summaries for the benchmark, and timing that interleaves what is compared. */

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

/** How many rounds timeRounds times, and the untimed rounds before them. */
export interface InterleaveOptions {
  count: number;
  budgetMs: number;
  warmup?: number;
  minRuns?: number;
}

/**
 * Times each of `runs` on input i = 0, 1, … in turn, one after the other for each i (starting
 * with a different one each time), so that compared figures share the machine's moments on a
 * noisy machine. Stops after `count` rounds, or once `budgetMs` has passed and at least
 * `minRuns` rounds were timed, after `warmup` untimed rounds. Gives each run's times in ms, round
 * by round (see medianRatio); the report says how many runs each figure rests on.
 */
export function timeRounds(runs: readonly ((i: number) => void)[], options: InterleaveOptions): number[][] {
  const warmup = options.warmup ?? 3;
  for (let i = 0; i < warmup; i++) for (const run of runs) run(i);
  const samples = runs.map((): number[] => []);
  const started = performance.now();
  for (let round = 0; round < options.count; round++) {
    for (let k = 0; k < runs.length; k++) {
      const which = (round + k) % runs.length;
      const t = performance.now();
      runs[which](warmup + round);
      samples[which].push(performance.now() - t);
    }
    if (performance.now() - started > options.budgetMs && round + 1 >= (options.minRuns ?? 5)) break;
  }
  return samples;
}

/** timeRounds, each run's times summarised. */
export function timeInterleaved(runs: readonly ((i: number) => void)[], options: InterleaveOptions): Latency[] {
  return timeRounds(runs, options).map(summarise);
}

/**
 * The median over rounds of a's time ÷ b's time in the same round (times from timeRounds). Each
 * pair ran back to back, so a drift of the machine's speed across the run (a memory bandwidth
 * that moves by a quarter between runs here) divides out, where a ratio of two medians keeps it.
 */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`medianRatio: ${a.length} times against ${b.length}`);
  const ratios = a.map((x, i) => x / b[i]).sort((x, y) => x - y);
  return percentileSorted(ratios, 50);
}

/**
 * User and system CPU time of the whole process (every thread) since `start`, in ms. Beside wall
 * time it tells a slow machine (wall grows, CPU does not) from slower code (both grow).
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
