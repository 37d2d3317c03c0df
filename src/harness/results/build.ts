import type { Experiment } from "../experiment/load.js";
import type { ExperimentResults, Manifest, ScenarioInfo, Trial } from "./types.js";
import { byCodeUnit } from "../../shared/order.js";

export function scenarioInfo(experiment: Experiment): ScenarioInfo[] {
  return [...experiment.scenarios]
    .sort((a, b) => byCodeUnit(a.spec.name, b.spec.name))
    .map(({ spec }) => {
      return {
        name: spec.name,
        description: spec.description.trim(),
        targets: spec.targets,
        asks: spec.steps.flatMap((step) =>
          step.ask
            ? [
                {
                  id: step.ask.id,
                  query: step.ask.query,
                  expect: step.ask.expect,
                  required: step.ask.required ?? step.ask.expect,
                  stale: step.ask.stale,
                  ...(step.ask.category !== undefined ? { category: step.ask.category } : {}),
                },
              ]
            : [],
        ),
      };
    });
}

export function buildResults(experiment: Experiment, trials: Trial[], manifest: Manifest): ExperimentResults {
  const { spec } = experiment;
  return {
    format: "recollect-results/1",
    experiment: {
      name: spec.name,
      file: experiment.file,
      description: spec.description.trim(),
      baseline: spec.baseline,
      ablations: experiment.ablations.map((a) => ({ name: a.name, description: a.description })),
      seeds: spec.seeds,
      k: spec.k,
      matchSource: spec.matchSource,
      scenarios: scenarioInfo(experiment),
      ...(experiment.importStats ? { importStats: experiment.importStats } : {}),
    },
    manifest,
    trials,
  };
}
