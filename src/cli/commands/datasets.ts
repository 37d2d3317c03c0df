import { existsSync } from "node:fs";
import { LOCOMO_SHA256, loadLocomo, toScenarios } from "../../datasets/locomo/index.js";
import type { DatasetResolver } from "../../harness/experiment/load.js";
import { readYaml } from "../../harness/files/load-yaml.js";
import type { DataArgs } from "../app.js";

/** Imports the datasets experiments name, from the paths the user gave. */
export function datasetResolver(data: DataArgs): DatasetResolver {
  return (dataset) => {
    const { samples, sha256 } = loadLocomo(data.locomo, { expectedSha256: data.acceptLocomoHash ? false : LOCOMO_SHA256 });
    const { scenarios, stats } = toScenarios(samples, dataset.locomo);
    return {
      scenarios: scenarios.map((spec) => ({ spec, origin: `locomo:${spec.name}`, sha256 })),
      datasets: [
        {
          name: "LoCoMo locomo10.json (snap-research/LoCoMo)",
          sha256,
          ...(sha256 !== LOCOMO_SHA256 ? { note: "not the pinned version; accepted with --accept-locomo-hash" } : {}),
        },
      ],
      importStats: { ...stats },
    };
  };
}

/** Why an experiment cannot run here because its data file is absent, or undefined when it can. */
export function missingDataset(file: string, data: DataArgs): string | undefined {
  const raw = readYaml(file) as { dataset?: { locomo?: unknown } } | null;
  if (raw?.dataset?.locomo !== undefined && !existsSync(data.locomo)) {
    return `the LoCoMo data file ${data.locomo} is absent (get locomo10.json from the public snap-research/LoCoMo repository and pass --locomo PATH)`;
  }
  return undefined;
}
