import { existsSync, readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type Experiment, loadExperiment } from "../../../src/harness/experiment/load.js";
import { stableContent } from "../../../src/harness/results/io.js";
import type { Trial } from "../../../src/harness/results/types.js";
import { embeddingService } from "../../../src/harness/runner/embeddings.js";
import { trialKey } from "../../../src/harness/results/trial-key.js";
import { Journal } from "../../../src/harness/runner/journal.js";
import { batchesOf, removeJournal, runTrials, shardOf, trialInputs, journalFile as journalFileOf } from "../../../src/harness/runner/run.js";
import Database from "better-sqlite3";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../temp-files.js";
import { resultsOf, writeTinyExperiment } from "../tiny-experiment.js";
import { withoutLatency } from "./trials.js";

const temp = useTempDir();
let experiment: Experiment;
/** One plain run in this thread, which several tests below read: its trials, their results serialised, and its progress calls. */
let referenceTrials: Trial[];
let reference: string;
const referenceProgress: [number, number][] = [];

beforeAll(async () => {
  experiment = await loadExperiment(writeTinyExperiment(temp));
  referenceTrials = await runTrials(experiment, { workers: 1, onProgress: (done, total) => referenceProgress.push([done, total]) });
  reference = stableContent(resultsOf(experiment, referenceTrials));
});

describe("batchesOf", () => {
  it("splits tasks in order into batches of neighbours, about eight per worker, at most 64 trials each, none empty", () => {
    const tasks = Array.from({ length: 1440 }, (_, i) => i);
    const two = batchesOf(tasks, 2);
    expect(two.flat()).toEqual(tasks);
    expect(two.every((b) => b.length > 0 && b.length <= 64)).toBe(true);
    expect(two.length).toBe(Math.ceil(1440 / 64));
    const small = batchesOf(tasks.slice(0, 48), 2);
    expect(small.map((b) => b.length)).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    expect(batchesOf([1, 2], 4)).toEqual([[1], [2]]);
    expect(batchesOf([], 2)).toEqual([]);
  });
});

describe("trialInputs", () => {
  it("lists every (scenario, ablation, seed) once: scenarios by name, ablations baseline first, seeds as written", () => {
    const keys = trialInputs(experiment).map((i) => `${i.scenario.name}/${i.ablation}/${i.seed}`);
    const expected = ["per-kind-demo", "stream-example", "write-back-yesterday"].flatMap((s) =>
      ["full", "pooled"].flatMap((a) => [1, 2, 3].map((seed) => `${s}/${a}/${seed}`)),
    );
    expect(keys).toEqual(expected);
  });

  it("hands each trial its ablation's system (recollect under its policy) and the experiment's variation", () => {
    for (const input of trialInputs(experiment)) {
      expect(input.system).toEqual({ type: "recollect", policy: experiment.ablations.find((a) => a.name === input.ablation)!.policy });
      expect(input.variation).toEqual({ jitter: 0.1, distractors: 2, shuffle: true, importanceNoise: 1, unratedImportanceNoise: 0 });
    }
  });
});

describe("runTrials (results apart from their measured call latencies)", () => {
  it("gives byte-identical results when run twice", async () => {
    const again = stableContent(resultsOf(experiment, await runTrials(experiment, { workers: 1 })));
    expect(again).toBe(reference);
  });

  it("gives byte-identical results with two worker processes as with one", async () => {
    const parallel = stableContent(resultsOf(experiment, await runTrials(experiment, { workers: 2 })));
    expect(parallel).toBe(reference);
  });

  it("gives byte-identical results with the embedding cache cold or warm, and with one worker or two", async () => {
    // The in-process encoder for real; stream-example carries its own vectors, the others are embedded.
    // Texts are embedded in this thread before any worker starts, so the two workers run from the
    // warm cache: with a cold one they would only repeat the one-worker run's embedding.
    const ranked = await loadExperiment(writeTinyExperiment(temp, { name: "tiny-embedding", ablations: ["full", "relevance-only-embedding", "relevance-only-hybrid"], seeds: [1, 2] }));
    const runWith = async (cacheFile: string, workers: number) => {
      const service = embeddingService({ cacheFile });
      try {
        return stableContent(resultsOf(ranked, await runTrials(ranked, { workers, embed: service.embed })));
      } finally {
        await service.close();
      }
    };
    const cold = await runWith(temp.path("embeddings.db"), 1);
    expect(await runWith(temp.path("embeddings.db"), 1), "warm cache, one worker").toBe(cold);
    expect(await runWith(temp.path("embeddings.db"), 2), "warm cache, two workers").toBe(cold);
  }, 120_000);

  it("gives byte-identical results with the token-count cache cold or warm, and with one worker or two", async () => {
    const runWith = async (tokenCache: string, workers: number) => stableContent(resultsOf(experiment, await runTrials(experiment, { workers, tokenCache })));
    for (const workers of [1, 2]) {
      const file = temp.path(`tokens-${workers}.db`);
      expect(await runWith(file, workers), `cold cache, ${workers} worker(s)`).toBe(reference);
      // The threads stored the counts of the blocks they priced, for the next run.
      const db = new Database(file, { readonly: true });
      expect((db.prepare("SELECT count(*) AS n FROM counts").get() as { n: number }).n).toBeGreaterThan(0);
      db.close();
      expect(await runWith(file, workers), `warm cache, ${workers} worker(s)`).toBe(reference);
    }
  }, 60_000);

  it("counts each distinct line once for the whole run, whatever the number of trials and workers", async () => {
    for (const workers of [1, 2]) {
      const counted: string[] = [];
      const tokenizer = { count: (text: string) => (counted.push(text), text.length) };
      await runTrials(experiment, { workers, tokenizer });
      expect(counted.length).toBeGreaterThan(10);
      expect(new Set(counted).size, `${workers} worker(s)`).toBe(counted.length);
    }
  });

  it("reports progress from 0 to the number of trials", () => {
    const calls = referenceProgress;
    const total = trialInputs(experiment).length;
    expect(calls[0]).toEqual([0, total]);
    expect(calls.at(-1)).toEqual([total, total]);
    expect(calls.map(([done]) => done)).toEqual(Array.from({ length: total + 1 }, (_, i) => i));
  });

  describe("shards", () => {
    it("split the grid into disjoint parts that together hold every trial", () => {
      const all = trialInputs(experiment);
      const parts = [1, 2, 3].map((index) => shardOf(all, { index, count: 3 }));
      expect(parts.flat()).toHaveLength(all.length);
      expect(new Set(parts.flat()).size).toBe(all.length);
      // Every count-th trial, so each shard gets a share of every scenario.
      expect(parts[0]).toEqual(all.filter((_, i) => i % 3 === 0));
      expect(shardOf(all, undefined)).toBe(all);
    });

    it("run only their own trials, each the same as in the whole run", async () => {
      const whole = referenceTrials.map(withoutLatency);
      const second = (await runTrials(experiment, { workers: 1, shard: { index: 2, count: 2 } })).map(withoutLatency);
      expect(second).toEqual(whole.filter((_, i) => i % 2 === 1));
    });
  });

  it.each([1, 2])("stops with the RecollectError a trial met, whether it ran in this thread or a worker's (%i workers)", async (workers) => {
    // A memory id written twice gets past no scenario file; here the spec is built by hand.
    const scenario = structuredClone(experiment.scenarios.find((s) => s.spec.name === "stream-example")!);
    const first = scenario.spec.steps[0]!.remember!;
    first.push({ ...first[0]! });
    const broken: Experiment = { ...experiment, scenarios: [scenario] };
    const error = await runTrials(broken, { workers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as RecollectError).message).toBe(`memory m0 already exists in scope "${scenario.spec.scope}"`);
  });

  describe("with a journal", () => {
    const journalFile = (dir: string) => journalFileOf(dir, experiment);

    it("keeps completed trials when a run is interrupted, and a re-run finishes only what is missing", async () => {
      const dir = temp.path("journal-interrupted");
      const interrupted = runTrials(experiment, {
        workers: 1,
        journalDir: dir,
        onProgress: (done) => {
          if (done === 5) throw new Error("interrupted");
        },
      });
      await expect(interrupted).rejects.toThrow("interrupted");
      const kept = readFileSync(journalFile(dir), "utf8").trim().split("\n");
      expect(kept).toHaveLength(5);

      const progress: number[] = [];
      const resumed = await runTrials(experiment, { workers: 1, journalDir: dir, onProgress: (done) => progress.push(done) });
      expect(progress[0]).toBe(5);
      expect(stableContent(resultsOf(experiment, resumed))).toBe(reference);
      // The journal stays until the caller has written the results, then goes.
      expect(existsSync(journalFile(dir))).toBe(true);
      removeJournal(dir, experiment);
      expect(readdirSync(dir)).toEqual([]);
    });

    it("takes journalled trials as they are, without running them again", async () => {
      const dir = temp.path("journal-planted");
      const first = trialInputs(experiment)[0];
      const asks = first.scenario.steps.flatMap((step) => (step.ask ? [{ ask: step.ask.id, ranks: [], coverage: null, leaked: [], tokens: 12345 }] : []));
      const planted: Trial = { scenario: first.scenario.name, ablation: first.ablation, seed: first.seed, asks };
      new Journal(journalFile(dir)).append(planted);
      const trials = await runTrials(experiment, { workers: 1, journalDir: dir });
      expect(trials[0]).toEqual(planted);
      expect(trials.slice(1).every((t) => t.asks.every((a) => a.tokens !== 12345))).toBe(true);
    });

    it("runs again, with a warning, a journalled trial that does not hold the scenario's asks", async () => {
      const dir = temp.path("journal-foreign");
      const first = trialInputs(experiment)[0];
      new Journal(journalFile(dir)).append({ scenario: first.scenario.name, ablation: first.ablation, seed: first.seed, asks: [] });
      const warnings: string[] = [];
      const trials = await runTrials(experiment, { workers: 1, journalDir: dir, onWarning: (w) => warnings.push(w) });
      expect(stableContent(resultsOf(experiment, trials))).toBe(reference);
      expect(warnings).toEqual([
        `${journalFile(dir)}: the journalled trial ${first.scenario.name} / ${first.ablation} / seed ${first.seed} does not hold this scenario's asks; it runs again`,
      ]);
    });

    it("ignores the journal of another version of the experiment", async () => {
      const dir = temp.path("journal-other-version");
      const first = trialInputs(experiment)[0];
      const stale = new Journal(`${dir}/${experiment.spec.name}-${"0".repeat(16)}.ndjson`);
      stale.append({ scenario: first.scenario.name, ablation: first.ablation, seed: first.seed, asks: [] });
      const trials = await runTrials(experiment, { workers: 1, journalDir: dir });
      expect(stableContent(resultsOf(experiment, trials))).toBe(reference);
      expect(stale.load().has(trialKey(trials[0]))).toBe(true);
    });
  });
});
