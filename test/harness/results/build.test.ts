import { describe, expect, it } from "vitest";
import { loadExperiment } from "../../../src/harness/experiment/load.js";
import { buildResults, scenarioInfo } from "../../../src/harness/results/build.js";
import type { Trial } from "../../../src/harness/results/types.js";
import { useTempDir } from "../temp-files.js";
import { fixedManifest, writeTinyExperiment } from "../tiny-experiment.js";

const temp = useTempDir();
const experiment = await loadExperiment(writeTinyExperiment(temp, { ablations: ["no-touch", "full"] }));

describe("scenarioInfo", () => {
  const info = scenarioInfo(experiment);

  it("lists scenarios by name with their asks in timeline order", () => {
    expect(info.map((s) => s.name)).toEqual(["per-kind-demo", "stream-example", "write-back-yesterday"]);
    expect(info[0].asks.map((a) => a.id)).toEqual(["which-hotel", "where-dinner"]);
  });

  it("records what each ask expects, requires and declares stale; required defaults to expect", () => {
    expect(info[0].asks[0]).toMatchObject({
      query: "Which hotel in Lisbon should Ana book for the trip?",
      expect: ["fact-budget", "fact-quiet"],
      required: ["fact-budget", "fact-quiet", "note-dates", "note-area"],
      stale: ["fact-budget-old"],
    });
    expect(info[2].asks[1]).toMatchObject({ id: "yesterday", expect: ["turn:flights"], required: ["turn:flights"], stale: [] });
  });

  it("records when each expected memory was written, a write-back at its ask, in hours from the start", () => {
    // write-back-yesterday: fact-home is written at the start, the flights ask (and its turn) 3 hours later, the next ask at 23 hours.
    expect(info[2].asks.map((a) => [a.hour, a.expectHours])).toEqual([
      [3, [0]],
      [23, [3]],
    ]);
  });

  it("trims descriptions folded from YAML", () => {
    for (const s of info) expect(s.description).toBe(s.description.trim());
  });
});

describe("buildResults", () => {
  it("describes the experiment: ablations in report order (the baseline first), seeds, k and scenarios", () => {
    const trials: Trial[] = [{ scenario: "stream-example", ablation: "full", seed: 1, asks: [] }];
    const results = buildResults(experiment, trials, fixedManifest(experiment));
    expect(results.format).toBe("recollect-results/2");
    expect(results.experiment).toMatchObject({
      name: "tiny",
      file: experiment.file,
      baseline: "full",
      seeds: [1, 2, 3],
      k: [1, 3, 5],
      matchSource: false,
    });
    expect(results.experiment.ablations.map((a) => a.name)).toEqual(["full", "no-touch"]);
    expect(results.experiment.ablations[1]).toMatchObject({
      description: "touch on → off",
      note: "retrieval does not keep what it returns fresh",
      policy: { touch: false },
    });
    expect(results.experiment).toMatchObject({ cluster: "scenario", headline: ["recall_any@1", "coverage"] });
    expect(results.experiment.scenarios).toEqual(scenarioInfo(experiment));
    expect(results.trials).toEqual(trials);
    expect("importStats" in results.experiment).toBe(false);
  });
});
