import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import { variationSchema } from "../../../src/harness/experiment/schema.js";
import { packScenarios, ScenarioCache } from "../../../src/harness/runner/pack.js";
import { runTrial } from "../../../src/harness/runner/trial.js";
import { runTrialTask } from "../../../src/harness/runner/worker.js";
import { scenarioSchema } from "../../../src/harness/scenario/schema.js";

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
  it("runs the trial a reference names, with the prepared counts, as runTrial does with the counter itself", () => {
    const refs = packScenarios([{ spec: SCENARIO, writeBack: true }], words);
    const settings = { ablation: "full", policy: fullPolicy, seed: 3, variation: variationSchema.parse({ shuffle: true }), matchSource: false, detail: true };
    const trials = runTrialTask({ ...settings, scenario: refs.get("task")! }, new ScenarioCache());
    expect(trials).toEqual([runTrial({ ...settings, scenario: SCENARIO }, words)]);
  });

  it("ranks each ask under every policy it is given, one trial each, in one pass of the timeline", () => {
    const refs = packScenarios([{ spec: SCENARIO, writeBack: true }], words);
    const base = { ...fullPolicy, touch: false };
    const settings = { ablation: "sweep", policy: base, seed: 3, variation: variationSchema.parse({ shuffle: true }), matchSource: false, detail: true };
    const under = [
      { name: "a", policy: base },
      { name: "b", policy: { ...base, score: { ...base.score, weights: [0, 1, 0] as [number, number, number] } } },
    ];
    const trials = runTrialTask({ ...settings, scenario: refs.get("task")!, under }, new ScenarioCache());
    expect(trials).toEqual(under.map(({ name, policy }) => runTrial({ ...settings, ablation: name, policy, scenario: SCENARIO }, words)));
  });
});
