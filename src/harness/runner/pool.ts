/**
 * The worker threads that run trial batches. A pool starts its threads when a run first needs
 * them and keeps them until it is closed, so that the runs of one command (the check's
 * experiments, an experiment's trials and then its sweep) share one set of threads instead of
 * each starting its own: every thread loads the TypeScript loader and the trial code, about a
 * second of CPU, and a worker's scenarios are cached by packing, so no run sees another's.
 */
import { availableParallelism } from "node:os";
import Tinypool from "tinypool";
import type { TaskBatch, TrialOutcome } from "./worker.js";

export class TrialPool {
  readonly threads: number;
  /** How often the threads were started: once for all the runs between two closes. */
  starts = 0;
  private pool: Tinypool | null = null;

  /** @param threads how many worker threads; one per core by default. */
  constructor(threads?: number) {
    this.threads = Math.max(1, threads ?? availableParallelism());
  }

  /** Runs the batches on the threads, starting them if they are not running, and tells `done` each outcome as it comes. */
  async run(batches: readonly TaskBatch[], done: (outcome: TrialOutcome) => void): Promise<void> {
    if (this.pool === null) {
      this.pool = new Tinypool({
        filename: new URL("./worker-entry.mjs", import.meta.url).href,
        minThreads: this.threads,
        maxThreads: this.threads,
        // Each worker ends the systems it started (a subprocess exits) before the pool ends it.
        teardown: "teardown",
        // A trial allocates fast and briefly (candidates, sections, blocks): a young generation of
        // 192 MB (semi-spaces of 64 MB) rather than V8's default lets most of it die before a
        // scavenge copies it. Against 64 MB, in turn: experiments/locomo.yaml 226 → 210 CPU-s,
        // peak RSS 2.39 → 2.05 GB; its sweep 72.4 → 65.7 CPU-s (2 pairs).
        resourceLimits: { maxYoungGenerationSizeMb: 192 },
      });
      this.starts++;
    }
    const pool = this.pool;
    await Promise.all(batches.map((batch) => pool.run(batch).then(done)));
  }

  /** Ends the threads, once each has ended what it started; a later run starts them again. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
