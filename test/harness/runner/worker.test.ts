import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import { variationSchema } from "../../../src/harness/scenario/variation.js";
import { packScenarios } from "../../../src/harness/runner/pack.js";
import { runTrialTask, ThreadState } from "../../../src/harness/runner/worker.js";
import { policyInput, runPolicyTrial, withoutLatency } from "./trials.js";
import { scenarioSchema } from "../../../src/harness/scenario/schema.js";
import Database from "better-sqlite3";
import { useTempDir } from "../temp-files.js";

const temp = useTempDir("recollect-worker-");

const SCENARIO = scenarioSchema.parse({
  name: "task",
  description: "two memories and an ask",
  steps: [
    { remember: [{ id: "tea", kind: "semantic", text: "The user likes tea." }, { id: "trip", kind: "episodic", text: "The user went to Rome." }] },
    { advance: "2d" },
    { ask: { id: "q", query: "What does the user like?", expect: ["tea"] } },
  ],
});
const words = { count: (text: string) => text.split(" ").length };

describe("runTrialTask", () => {
  it("runs the trial a reference names, with the prepared counts, as runTrial does with the counter itself", async () => {
    const refs = packScenarios([{ spec: SCENARIO, writeBack: true }], words);
    const settings = { ablation: "full", policy: fullPolicy, seed: 3, variation: variationSchema.parse({ shuffle: true }), matchSource: false, detail: true };
    const { scenario: _, ...task } = policyInput({ ...settings, scenario: SCENARIO });
    const state = new ThreadState();
    const trials = await runTrialTask({ ...task, scenario: refs.get("task")! }, state);
    // The thread prices each returned block with the Gemma tokenizer.
    expect(trials[0].asks[0].returnedTokens).toBeGreaterThan(trials[0].asks[0].tokens);
    const unpriced = trials.map((t) => ({ ...withoutLatency(t), asks: t.asks.map(({ returnedTokens: __, ...a }) => a) }));
    expect(unpriced).toEqual([await runPolicyTrial({ ...settings, scenario: SCENARIO }, words)]);
    await state.shutdown();
  });

  it("ranks each ask under every policy it is given, one trial each, in one pass of the timeline", async () => {
    const refs = packScenarios([{ spec: SCENARIO, writeBack: true }], words);
    const base = { ...fullPolicy, touch: false };
    const settings = { ablation: "sweep", policy: base, seed: 3, variation: variationSchema.parse({ shuffle: true }), matchSource: false, detail: true };
    const under = [
      { name: "a", policy: base },
      { name: "b", policy: { ...base, score: { ...base.score, weights: [0, 1, 0] as [number, number, number] } } },
    ];
    const { scenario: _, ...task } = policyInput({ ...settings, scenario: SCENARIO });
    const trials = await runTrialTask({ ...task, scenario: refs.get("task")!, under }, new ThreadState());
    const alone = await Promise.all(under.map(({ name, policy }) => runPolicyTrial({ ...settings, ablation: name, policy, scenario: SCENARIO }, words)));
    expect(trials).toEqual(alone);
  });

  it("runs a batch's trials in order, as each task alone gives them, and stores the block counts it made in the batch's cache", async () => {
    const refs = packScenarios([{ spec: SCENARIO, writeBack: true }], words);
    const settings = { ablation: "full", policy: fullPolicy, variation: variationSchema.parse({ shuffle: true }), matchSource: false, detail: true };
    const tasks = [3, 1, 2].map((seed) => {
      const { scenario: _, ...task } = policyInput({ ...settings, seed, scenario: SCENARIO });
      return { ...task, scenario: refs.get("task")! };
    });
    const tokenCache = temp.path("blocks.db");
    const state = new ThreadState();
    const batch = await state.runBatch({ tasks, tokenCache });
    const alone = new ThreadState();
    const each = (await Promise.all(tasks.map((task) => runTrialTask(task, alone)))).flat();
    expect(batch.map(withoutLatency)).toEqual(each.map(withoutLatency));
    expect(batch.map((t) => t.seed)).toEqual([3, 1, 2]);
    // Flushed at the batch's end, before the thread shuts down.
    const db = new Database(tokenCache, { readonly: true });
    const stored = db.prepare("SELECT count(*) AS n FROM counts").get() as { n: number };
    db.close();
    expect(stored.n).toBeGreaterThan(0);
    await Promise.all([state.shutdown(), alone.shutdown()]);
  });
});
