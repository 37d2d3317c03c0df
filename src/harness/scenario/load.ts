import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadYaml } from "../files/load-yaml.js";
import { scenarioSchema, type ScenarioSpec } from "./schema.js";
import { checkTimeline } from "./validate.js";

/** A scenario ready to run: its validated timeline and where it came from. */
export interface Scenario {
  spec: ScenarioSpec;
  /** The file it was read from, or a dataset reference such as "locomo:conv-26". */
  origin: string;
  /** sha256 of the file's bytes (or of the dataset file), for the results manifest. */
  sha256: string;
  /** Set on a scenario the experiment imported from its dataset (a conversation), not read from a scenario file. */
  imported?: true;
}

export function loadScenario(file: string): Scenario {
  const spec = loadYaml(file, scenarioSchema);
  checkTimeline(file, spec);
  return { spec, origin: file, sha256: createHash("sha256").update(readFileSync(file)).digest("hex") };
}
