import { describe, expect, it } from "vitest";
import { summarise, type SummariseOptions } from "../../../src/harness/summary/summarise.js";
import { summariseAll } from "../../../src/harness/summary/summarise-all.js";
import { syntheticResults } from "../../fixtures/synthetic-results.js";

const FAST: SummariseOptions = { seed: 11, bootstrapResamples: 400, testResamples: 2000 };
const experiments = [syntheticResults({ name: "small", seeds: [1] }), syntheticResults({ name: "large", seeds: [1, 2, 3, 4] }), syntheticResults({ name: "middle", seeds: [1, 2] })];

describe("summariseAll", () => {
  it("gives each experiment's summary, in order, the same with the largest on a thread of its own as without", async () => {
    const started: string[] = [];
    const threaded = await summariseAll(experiments, FAST, { thread: true, threadMinAsks: 0, onStart: (name) => started.push(name) });
    expect(threaded).toEqual(experiments.map((r) => summarise(r, FAST)));
    // The thread's experiment starts first, so that it works while this thread does the rest.
    expect(started).toEqual(["large", "small", "middle"]);
    expect(await summariseAll(experiments, FAST, { thread: false })).toEqual(threaded);
  });

  it("keeps an experiment with fewer asks than a thread repays, or a lone one, on this thread", async () => {
    const started: string[] = [];
    await summariseAll(experiments, FAST, { thread: true, onStart: (name) => started.push(name) });
    expect(started).toEqual(["small", "large", "middle"]);
    expect(await summariseAll([experiments[1]!], FAST, { thread: true, threadMinAsks: 0 })).toEqual([summarise(experiments[1]!, FAST)]);
  });

  it("fails with the thread's error, naming the experiment, when its statistics throw", async () => {
    const broken = structuredClone(experiments[1]!);
    broken.experiment.baseline = "missing";
    const error = await summariseAll([experiments[0]!, broken], FAST, { thread: true, threadMinAsks: 0 }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/^the statistics of experiment "large" failed on their thread: Error: experiment "large": baseline "missing" is not among its ablations/);
  });
});
