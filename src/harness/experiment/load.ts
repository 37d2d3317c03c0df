import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { globSync, isDynamicPattern } from "tinyglobby";
import { PRESETS } from "../../memory/index.js";
import type { RetrievalPolicy } from "../../memory/types.js";
import { usesEmbedding } from "../../model/chat-loop.js";
import { fileError } from "../../shared/errors.js";
import { loadYaml, validate } from "../files/load-yaml.js";
import { BUILT_IN_ABLATIONS, findAblation } from "../policy/ablations.js";
import { describeChanges, describePolicy } from "../policy/describe.js";
import { applyPatch } from "../policy/patch.js";
import { policySchema } from "../policy/schema.js";
import { loadScenario, type Scenario } from "../scenario/load.js";
import { experimentSchema, type ExperimentSpec } from "./schema.js";
import { byCodeUnit } from "../../shared/order.js";

export interface ResolvedAblation {
  name: string;
  /** What the policy does (the baseline) or changes (the others), generated from the policy. */
  description: string;
  /** Why it is run, as the built-in ablation or the experiment file says. */
  note?: string;
  policy: RetrievalPolicy;
}

/** Scenarios that come from a public dataset rather than files, with the data's hash. */
export interface DatasetScenarios {
  scenarios: Scenario[];
  datasets: { name: string; sha256: string; note?: string }[];
  importStats?: Record<string, unknown>;
}

/** Imports a dataset named in an experiment; injected so the harness does not depend on importers. */
export type DatasetResolver = (dataset: NonNullable<ExperimentSpec["dataset"]>, experimentFile: string) => DatasetScenarios;

export interface Experiment {
  spec: ExperimentSpec;
  file: string;
  /** The baseline first, then the others in file order. */
  ablations: ResolvedAblation[];
  scenarios: Scenario[];
  datasets: DatasetScenarios["datasets"];
  importStats?: Record<string, unknown>;
  /** sha256 over the experiment file, its scenarios and its data. */
  hash: string;
}

function resolveAblations(file: string, spec: ExperimentSpec, base: RetrievalPolicy): ResolvedAblation[] {
  const resolved: ResolvedAblation[] = [];
  spec.ablations.forEach((entry, i) => {
    const custom = typeof entry === "string" ? undefined : entry;
    const name = typeof entry === "string" ? entry : entry.name;
    const builtIn = findAblation(custom ? (custom.from ?? "full") : name);
    if (!builtIn) {
      const known = BUILT_IN_ABLATIONS.map((a) => a.name).join(", ");
      const where = custom ? `ablations[${i}].from` : `ablations[${i}]`;
      throw fileError(file, `at ${where}: unknown ablation "${custom?.from ?? name}" (known: ${known})`);
    }
    if (resolved.some((a) => a.name === name)) throw fileError(file, `at ablations[${i}]: duplicate ablation "${name}"`);
    let policy = applyPatch(base, builtIn.patch(base));
    if (custom) policy = applyPatch(policy, custom.patch);
    validate(`${file} (ablation "${name}")`, policySchema, policy);
    const note = custom ? custom.description : builtIn.note;
    resolved.push({ name, description: "", ...(note === undefined ? {} : { note }), policy });
  });
  const baseline = resolved.find((a) => a.name === spec.baseline);
  if (!baseline) throw fileError(file, `at baseline: "${spec.baseline}" is not one of the experiment's ablations`);
  for (const ablation of resolved) {
    ablation.description = ablation === baseline ? describePolicy(baseline.policy) : describeChanges(baseline.policy, ablation.policy);
  }
  return [baseline, ...resolved.filter((a) => a !== baseline)];
}

function resolveScenarioFiles(file: string, patterns: string[]): string[] {
  const files: string[] = [];
  patterns.forEach((pattern, i) => {
    // An absolute pattern gives absolute paths, so messages name files as the experiment does.
    const matches = isDynamicPattern(pattern) ? globSync(pattern, { onlyFiles: true, absolute: isAbsolute(pattern) }).sort() : [pattern];
    if (matches.length === 0) throw fileError(file, `at scenarios[${i}]: no scenario file matches "${pattern}"`);
    for (const match of matches) {
      if (!existsSync(match)) throw fileError(file, `at scenarios[${i}]: scenario file "${match}" not found`);
      // The same file may be named twice in different spellings ("./a.yaml" and a glob's "a.yaml").
      if (!files.some((f) => resolve(f) === resolve(match))) files.push(match);
    }
  });
  return files;
}

/** An ablation that ranks by embedding needs a vector for every ask; scenarios write them out. */
function checkEmbeddings(file: string, ablations: ResolvedAblation[], scenarios: Scenario[]): void {
  const ranking = ablations.find((a) => usesEmbedding(a.policy));
  if (ranking === undefined) return;
  for (const scenario of scenarios) {
    const ask = scenario.spec.steps.find((step) => step.ask && step.ask.embedding === undefined)?.ask;
    if (ask !== undefined) {
      throw fileError(
        file,
        `at ablations: "${ranking.name}" ranks by embedding, but ask "${ask.id}" of scenario "${scenario.spec.name}" (${scenario.origin}) has no embedding to rank with`,
      );
    }
  }
}

export function loadExperiment(file: string, resolveDataset?: DatasetResolver): Experiment {
  const spec = loadYaml(file, experimentSchema);
  const base = applyPatch(PRESETS[spec.policy], spec.policyPatch);
  validate(`${file} (policy)`, policySchema, base);
  const ablations = resolveAblations(file, spec, base);

  const scenarios = resolveScenarioFiles(file, spec.scenarios).map(loadScenario);
  let datasets: DatasetScenarios["datasets"] = [];
  let importStats: Record<string, unknown> | undefined;
  if (spec.dataset) {
    if (!resolveDataset) throw fileError(file, "at dataset: this command cannot import datasets");
    const imported = resolveDataset(spec.dataset, file);
    scenarios.push(...imported.scenarios);
    datasets = imported.datasets;
    importStats = imported.importStats;
  }
  checkEmbeddings(file, ablations, scenarios);
  const names = new Set<string>();
  for (const scenario of scenarios) {
    if (names.has(scenario.spec.name)) {
      throw fileError(scenario.origin, `scenario name "${scenario.spec.name}" is used by another scenario of ${file}`);
    }
    names.add(scenario.spec.name);
  }

  const hash = createHash("sha256").update(readFileSync(file));
  for (const s of [...scenarios].sort((a, b) => byCodeUnit(a.spec.name, b.spec.name))) hash.update(`${s.spec.name}:${s.sha256}`);
  for (const d of datasets) hash.update(`${d.name}:${d.sha256}`);
  return { spec, file, ablations, scenarios, datasets, importStats, hash: hash.digest("hex") };
}
