import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { PRESETS } from "../../memory/index.js";
import type { RetrievalPolicy } from "../../memory/index.js";
import { policyEmbeddingModel, usesEmbedding } from "../../memory/index.js";
import { parseModelId } from "../../model/embedding/registry.js";
import { hasLiteralVectors } from "../scenario/validate.js";
import { fileError } from "../../shared/errors.js";
import { loadYaml, validate } from "../files/load-yaml.js";
import { BUILT_IN_ABLATIONS, findAblation } from "../policy/ablations.js";
import { describeChanges, describePolicy } from "../policy/describe.js";
import { applyPatch } from "../policy/patch.js";
import { ablationPolicy, patchWarnings } from "./patch-warnings.js";
import { readPolicyPreset } from "../policy/preset-file.js";
import { policySchema } from "../policy/schema.js";
import { type ResolvedSweep, resolveSweep } from "./sweep-points.js";
import { loadScenario, type Scenario } from "../scenario/load.js";
import { ExperimentPaths } from "./paths.js";
import { type ResolvedSystem, resolveSystems, systemBudget, systemFileContents } from "./systems.js";
import type { SystemInfo, SystemRef } from "../systems/spec.js";
import { type AskProtocol, type DatasetSpec, experimentRuns, experimentSchema, type ExperimentSpec } from "./schema.js";
import { byCodeUnit } from "../../shared/order.js";

/** An ablation (recollect under a policy) or a system compared beside them: what a trial runs. */
export interface ResolvedAblation {
  name: string;
  /** What the policy does (the baseline) or changes (the others), generated from the policy; a system's own description. */
  description: string;
  /** Why it is run, as the built-in ablation or the experiment file says. */
  note?: string;
  system: SystemRef;
  /** The policy, for recollect's own ablations. */
  policy?: RetrievalPolicy;
  /** What results record of a system that is not a recollect policy. */
  info?: SystemInfo;
  /** Whether each question is written back to the system. */
  writeBack: boolean;
  /** The token budget each retrieval is told. */
  budget: number | null;
  /** The embedding model the policy ranks by, when it ranks by embedding. */
  embeddingModel?: string;
}

/** Scenarios that come from a dataset rather than files, with the data's hash. */
export interface DatasetScenarios {
  scenarios: Scenario[];
  datasets: { name: string; sha256: string; note?: string; path?: string }[];
  importStats?: Record<string, unknown>;
  /** What the import repaired, case by case, for the reader of the file (see Experiment.warnings). */
  warnings?: string[];
}

/** A dataset as the experiment names it, with its file (if it names one) found. */
export type ResolvedDataset =
  | Extract<DatasetSpec, { locomo: unknown }>
  | (Extract<DatasetSpec, { format: "conversations" }> & {
      /** The file, as a path usable from the working folder. */
      file: string;
      /** The file relative to the experiment's folder, as the manifest records it. */
      recorded: string;
    });

/**
 * Imports a dataset named in an experiment, asking its questions as the run's protocol says;
 * injected so the harness does not depend on importers.
 */
export type DatasetResolver = (
  dataset: ResolvedDataset,
  experimentFile: string,
  protocol: { protocol: AskProtocol; seed: number },
) => Promise<DatasetScenarios>;

export interface Experiment {
  /** The experiment file's settings, `name` being this run's (see experimentRuns). */
  spec: ExperimentSpec;
  file: string;
  /** The experiment's own name, shared by its runs. */
  family: string;
  /** The ask protocol of this run, for experiments on a dataset. */
  protocol?: AskProtocol;
  /** The baseline first, then the others in file order. */
  ablations: ResolvedAblation[];
  /** The sweep's points, when the experiment sweeps policy parameters. */
  sweep?: ResolvedSweep;
  scenarios: Scenario[];
  datasets: DatasetScenarios["datasets"];
  importStats?: Record<string, unknown>;
  /** sha256 over the experiment file, its scenarios and its data. */
  hash: string;
  /** What a reader of the file should know before trusting its runs (a patch that changes nothing), one line each. */
  warnings: string[];
}

function resolveAblations(file: string, spec: ExperimentSpec, base: RetrievalPolicy, systems: ResolvedSystem[]): ResolvedAblation[] {
  const resolved: ResolvedAblation[] = [];
  const budget = systemBudget(spec, base);
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
    const policy = ablationPolicy(base, builtIn, custom?.patch);
    validate(`${file} (ablation "${name}")`, policySchema, policy);
    const embedded = withEmbeddingModel(file, `ablations[${i}] ("${name}")`, policy, spec.embedding.model);
    const note = custom ? custom.description : builtIn.note;
    resolved.push({
      name,
      description: "",
      ...(note === undefined ? {} : { note }),
      system: { type: "recollect", policy: embedded.policy },
      policy: embedded.policy,
      writeBack: policy.writeBack,
      budget,
      ...(embedded.model === undefined ? {} : { embeddingModel: embedded.model }),
    });
  });
  systems.forEach((system, i) => {
    if (resolved.some((a) => a.name === system.name)) throw fileError(file, `at systems[${i}]: "${system.name}" is already the name of an ablation or system`);
    const { files: _, ...rest } = system;
    resolved.push({ ...rest, budget });
  });
  const baseline = resolved.find((a) => a.name === spec.baseline);
  if (!baseline) throw fileError(file, `at baseline: "${spec.baseline}" is not one of the experiment's ablations or systems`);
  // Policies are described by what they change against the baseline's, or the base policy's when the baseline is a system.
  const reference = baseline.policy ?? base;
  for (const ablation of resolved) {
    if (ablation.policy === undefined) continue;
    ablation.description = ablation === baseline ? describePolicy(ablation.policy) : describeChanges(reference, ablation.policy);
  }
  return [baseline, ...resolved.filter((a) => a !== baseline)];
}

/**
 * A policy that ranks by embedding names the model it ranks by: its own, or the experiment's,
 * written into the policy so that results record which model ran. Other policies are left as they are.
 */
export function withEmbeddingModel(file: string, where: string, policy: RetrievalPolicy, fallback: string): { policy: RetrievalPolicy; model?: string } {
  if (!usesEmbedding(policy)) return { policy };
  let named: string | undefined;
  try {
    named = policyEmbeddingModel(policy);
    if (named !== undefined) parseModelId(named);
  } catch (error) {
    throw fileError(file, `at ${where}: ${(error as Error).message}`, { cause: error });
  }
  const model = named ?? fallback;
  return { policy: named === undefined ? { ...policy, score: { ...policy.score, embeddingModel: model } } : policy, model };
}

/** The sweep's points, each naming the embedding model it ranks by, and the one model they share. */
function withSweepEmbeddings(file: string, sweep: ResolvedSweep, fallback: string): ResolvedSweep {
  const points = sweep.points.map((point) => ({ ...point, ...withEmbeddingModel(file, `sweep (point ${point.id})`, point.policy, fallback) }));
  const models = [...new Set(points.flatMap((p) => (p.model === undefined ? [] : [p.model])))];
  // One pass ranks each question under every point with one query vector, so they share a model.
  if (models.length > 1) throw fileError(file, `at sweep: the points rank by ${models.length} embedding models (${models.join(", ")}); sweep one at a time`);
  return { ...sweep, points: points.map(({ model: _, ...point }) => point), ...(models.length === 0 ? {} : { embeddingModel: models[0] }) };
}

function resolveScenarioFiles(paths: ExperimentPaths, patterns: string[]): string[] {
  const files: string[] = [];
  patterns.forEach((pattern, i) => {
    for (const match of paths.files(pattern, `scenarios[${i}]`, "scenario file")) {
      // The same file may be named twice in different spellings ("./a.yaml" and a glob's "a.yaml").
      if (!files.some((f) => resolve(f) === resolve(match))) files.push(match);
    }
  });
  return files;
}

/**
 * A scenario that writes vectors of its own is ranked by them alone (an embedding model ranks the
 * others), so under an ablation that ranks by embedding every one of its asks needs one.
 */
function checkEmbeddings(file: string, ablations: ResolvedAblation[], scenarios: Scenario[]): void {
  const ranking = ablations.find((a) => a.policy !== undefined && usesEmbedding(a.policy));
  if (ranking === undefined) return;
  for (const scenario of scenarios) {
    if (!hasLiteralVectors(scenario.spec)) continue;
    const ask = scenario.spec.steps.find((step) => step.ask && step.ask.embedding === undefined)?.ask;
    if (ask !== undefined) {
      throw fileError(
        file,
        `at ablations: "${ranking.name}" ranks by embedding, and scenario "${scenario.spec.name}" (${scenario.origin}) writes vectors of its own, but its ask "${ask.id}" has none to rank with`,
      );
    }
  }
}

/**
 * The experiment's dataset with its file found, relative to the experiment's folder. With
 * `mustExist: false` an absent file is not an error (a command may skip an experiment whose data
 * is absent), but a file outside the folder is refused all the same.
 */
export function resolveDataset(file: string, spec: ExperimentSpec, { mustExist = true } = {}): ResolvedDataset | undefined {
  const dataset = spec.dataset;
  if (dataset === undefined || "locomo" in dataset) return dataset;
  const paths = new ExperimentPaths(file, spec.allowOutside);
  const found = mustExist ? paths.file(dataset.path, "dataset.path", "data file") : paths.path(dataset.path, "dataset.path");
  return { ...dataset, file: found, recorded: paths.recorded(found) };
}

/** The dataset an experiment file names, read and checked as loadExperiments reads it; its file need not exist. */
export function experimentDataset(file: string): ResolvedDataset | undefined {
  return resolveDataset(file, loadYaml(file, experimentSchema), { mustExist: false });
}

/**
 * The experiment's policy patch, with write-back off by default when it imports a dataset: a
 * benchmark's questions are probes of the conversation, not turns of it, so writing each one back
 * would add memories the benchmark never had, and let later questions retrieve earlier ones. An
 * experiment that wants them written back asks with `policyPatch: { writeBack: true }`.
 */
function datasetPolicyPatch(spec: ExperimentSpec, policyPatch = spec.policyPatch): ExperimentSpec["policyPatch"] {
  if (spec.dataset === undefined || policyPatch.writeBack !== undefined) return policyPatch;
  return { ...policyPatch, writeBack: false };
}

/**
 * Loads an experiment file as the runs it asks for: one, or one per ask protocol it lists. Each
 * run imports its dataset with its own protocol and records its own results.
 */
export async function loadExperiments(file: string, importDataset?: DatasetResolver): Promise<Experiment[]> {
  const spec = loadYaml(file, experimentSchema);
  // The experiment's model is checked whether or not an ablation uses it, so a typo never waits.
  try {
    parseModelId(spec.embedding.model);
  } catch (error) {
    throw fileError(file, `at embedding.model: ${(error as Error).message}`, { cause: error });
  }
  const preset = basePolicy(file, spec);
  const base = applyPatch(preset.policy, datasetPolicyPatch(spec));
  validate(`${file} (policy)`, policySchema, base);
  const systems = resolveSystems(file, spec, base);
  const ablations = resolveAblations(file, spec, base, systems);
  const systemFiles = systemFileContents(systems);
  const sweep = spec.sweep === undefined ? undefined : withSweepEmbeddings(file, resolveSweep(file, spec.sweep, base), spec.embedding.model);
  const warnings = patchWarnings(file, spec, base, applyPatch(preset.policy, datasetPolicyPatch(spec, {})), sweep);
  const paths = new ExperimentPaths(file, spec.allowOutside);
  const dataset = resolveDataset(file, spec);
  const files = resolveScenarioFiles(paths, spec.scenarios);
  const runs: Experiment[] = [];
  for (const run of experimentRuns(spec)) {
    const scenarios = files.map(loadScenario);
    let datasets: DatasetScenarios["datasets"] = [];
    let importStats: Record<string, unknown> | undefined;
    let importWarnings: string[] = [];
    if (dataset) {
      if (!importDataset) throw fileError(file, "at dataset: this command cannot import datasets");
      const imported = await importDataset(dataset, file, { protocol: run.protocol ?? "end", seed: run.askSeed });
      scenarios.push(...imported.scenarios.map((scenario): Scenario => ({ ...scenario, imported: true })));
      datasets = imported.datasets;
      importStats = imported.importStats;
      importWarnings = imported.warnings ?? [];
    }
    runs.push(
      assemble(file, { ...spec, name: run.name }, ablations, scenarios, datasets, importStats, {
        family: spec.name,
        ...(run.protocol === undefined ? {} : { protocol: run.protocol, askSeed: run.askSeed }),
        ...(sweep === undefined ? {} : { sweep }),
        ...(preset.text === undefined ? {} : { presetText: preset.text }),
        systemFiles,
        warnings: [...warnings, ...importWarnings],
      }),
    );
  }
  return runs;
}

/** Loads an experiment file that asks for one run, as most do. */
export async function loadExperiment(file: string, importDataset?: DatasetResolver): Promise<Experiment> {
  const runs = await loadExperiments(file, importDataset);
  if (runs.length !== 1) throw fileError(file, `at dataset.protocols: this command runs one protocol at a time, and the file lists ${runs.length}`);
  return runs[0];
}

function assemble(
  file: string,
  spec: ExperimentSpec,
  ablations: ResolvedAblation[],
  scenarios: Scenario[],
  datasets: DatasetScenarios["datasets"],
  importStats: Record<string, unknown> | undefined,
  run: Pick<Experiment, "family" | "protocol" | "sweep" | "warnings"> & { askSeed?: number; presetText?: string; systemFiles: string[] },
): Experiment {
  checkEmbeddings(file, ablations, scenarios);
  const names = new Set<string>();
  for (const scenario of scenarios) {
    if (names.has(scenario.spec.name)) {
      throw fileError(scenario.origin, `scenario name "${scenario.spec.name}" is used by another scenario of ${file}`);
    }
    names.add(scenario.spec.name);
  }

  const hash = createHash("sha256").update(readFileSync(file));
  if (run.presetText !== undefined) hash.update(`policy:${run.presetText}`);
  for (const s of [...scenarios].sort((a, b) => byCodeUnit(a.spec.name, b.spec.name))) hash.update(`${s.spec.name}:${s.sha256}`);
  for (const d of datasets) hash.update(`${d.name}:${d.sha256}`);
  // A dataset's scenarios carry the data file's hash; the ask times come from the protocol.
  if (run.protocol !== undefined) hash.update(`protocol:${run.protocol}:${run.askSeed}`);
  // A system's own files are part of what ran: a journal is resumed only by the same code.
  for (const contents of run.systemFiles) hash.update(`system:${contents}`);
  const { askSeed: _, presetText: __, systemFiles: ___, ...named } = run;
  return { spec, file, ...named, ablations, scenarios, datasets, importStats, hash: hash.digest("hex") };
}

/** The policy the experiment starts from: a built-in preset, or a preset file (with its text, for the hash). */
function basePolicy(file: string, spec: ExperimentSpec): { policy: RetrievalPolicy; text?: string } {
  if (typeof spec.policy === "string") return { policy: PRESETS[spec.policy] };
  const found = new ExperimentPaths(file, spec.allowOutside).file(spec.policy.file, "policy.file", "policy preset file");
  return { policy: readPolicyPreset(found).policy, text: readFileSync(found, "utf8") };
}
