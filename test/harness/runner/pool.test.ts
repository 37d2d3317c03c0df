import { availableParallelism } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import { type Experiment, loadExperiment } from "../../../src/harness/experiment/load.js";
import { stableContent } from "../../../src/harness/results/io.js";
import { TrialPool } from "../../../src/harness/runner/pool.js";
import { type RunOptions, runTrials } from "../../../src/harness/runner/run.js";
import { useTempDir } from "../temp-files.js";
import { resultsOf, writeTinyExperiment } from "../tiny-experiment.js";

const temp = useTempDir();
let first: Experiment;
let second: Experiment;
/** Each experiment's results from a run of its own (in this thread: results do not depend on it, see run.test.ts). */
let alone: string[];

const results = async (experiment: Experiment, options: RunOptions) => stableContent(resultsOf(experiment, await runTrials(experiment, options)));

beforeAll(async () => {
  first = await loadExperiment(writeTinyExperiment(temp));
  // Other scenarios' packing and other seeds: what a second experiment of one command brings.
  second = await loadExperiment(writeTinyExperiment(temp, { name: "tiny-other", ablations: ["full", "relevance-only"], seeds: [7, 8] }));
  alone = [await results(first, { workers: 1 }), await results(second, { workers: 1 })];
});

describe("TrialPool", () => {
  it("runs one command's experiments on threads it starts once, each as it runs alone, and starts them again after it is closed", async () => {
    const pool = new TrialPool(2);
    try {
      expect(pool.starts).toBe(0);
      const shared = [await results(first, { pool }), await results(second, { pool }), await results(first, { pool })];
      expect(pool.starts).toBe(1);
      expect(shared).toEqual([alone[0], alone[1], alone[0]]);
      await pool.close();
      await pool.close();
      expect(await results(second, { pool })).toBe(alone[1]);
      expect(pool.starts).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("starts no thread for runs that one thread serves, and its thread count overrides the run's workers", async () => {
    const pool = new TrialPool(1);
    try {
      expect(await results(first, { pool, workers: 2 })).toBe(alone[0]);
      expect(pool.starts).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it("has one thread per core unless told, and at least one", () => {
    expect(new TrialPool().threads).toBe(availableParallelism());
    expect(new TrialPool(0).threads).toBe(1);
    expect(new TrialPool(3).threads).toBe(3);
  });
});
