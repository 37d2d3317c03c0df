import { type Experiment, loadExperiment } from "../../src/harness/experiment/load.js";
import { buildResults } from "../../src/harness/results/build.js";
import type { ExperimentResults, Manifest, Trial } from "../../src/harness/results/types.js";
import { type RunOptions, runTrials } from "../../src/harness/runner/run.js";
import { repoPath, type TempDir } from "./temp-files.js";

/** Three committed scenarios with different shapes: vectors, write-backs, two asks with a correction. */
export const TINY_SCENARIOS = ["scenarios/stream-example.yaml", "scenarios/write-back-yesterday.yaml", "scenarios/per-kind-demo.yaml"];

export interface TinyOptions {
  name?: string;
  ablations?: string[];
  seeds?: number[];
  detail?: boolean;
}

/**
 * Writes a small experiment (three scenarios, two ablations, three seeds, every kind of variation)
 * into `temp` and returns its path. Scenario paths are absolute (outside the experiment's folder,
 * so it allows that), so it loads from any folder.
 */
export function writeTinyExperiment(temp: TempDir, options: TinyOptions = {}): string {
  const name = options.name ?? "tiny";
  return temp.write(
    `${name}.yaml`,
    [
      `name: ${name}`,
      "description: a small grid for runner tests",
      "allowOutside: true",
      "scenarios:",
      ...TINY_SCENARIOS.map((s) => `  - ${JSON.stringify(repoPath(s))}`),
      `ablations: [${(options.ablations ?? ["full", "pooled"]).join(", ")}]`,
      `seeds: [${(options.seeds ?? [1, 2, 3]).join(", ")}]`,
      "variation: { jitter: 0.1, distractors: 2, shuffle: true, importanceNoise: 1 }",
      `detail: ${options.detail ?? true}`,
    ].join("\n"),
  );
}

/** A manifest with fixed run fields, so that two runs' serialised results can be compared byte for byte. */
export function fixedManifest(experiment: Experiment): Manifest {
  return {
    gitCommit: "0000000",
    gitDirty: false,
    node: "v20",
    packages: {},
    tokenizerSha256: "tokenizer",
    datasets: experiment.datasets,
    experimentHash: experiment.hash,
    wallTimeMs: 0,
  };
}

export function resultsOf(experiment: Experiment, trials: Trial[]): ExperimentResults {
  return buildResults(experiment, trials, fixedManifest(experiment));
}

export async function runTiny(file: string, options: RunOptions = { workers: 1 }): Promise<ExperimentResults> {
  const experiment = await loadExperiment(file);
  return resultsOf(experiment, await runTrials(experiment, options));
}
