import { existsSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { globSync } from "tinyglobby";
import { importStatsSchema, repairSummary } from "../../datasets/conversations/index.js";
import { gemmaTokenizer, tokenizerSha256 } from "../../memory/index.js";
import { type Experiment, loadExperiments } from "../../harness/experiment/load.js";
import { buildManifest } from "../../harness/results/manifest.js";
import { buildResults } from "../../harness/results/build.js";
import type { ExperimentResults } from "../../harness/results/types.js";
import { TrialPool } from "../../harness/runner/pool.js";
import { type RunOptions, runTrials } from "../../harness/runner/run.js";
import { runSweep } from "../../harness/sweep/run.js";
import { cachingCounter, DEFAULT_TOKEN_CACHE_FILE } from "../../harness/runner/token-cache.js";
import { embeddingService } from "../../harness/runner/embeddings.js";
import { DEFAULT_CACHE_FILE } from "../../model/embedding/index.js";
import type { TokenCounter } from "../../memory/index.js";
import type { DataArgs, Log, OutputStream } from "../app.js";
import type { Progress } from "../progress.js";
import { PRESET_SUFFIX } from "../../report/paths.js";
import { UsageError } from "../../shared/errors.js";
import { datasetResolver, missingDataset } from "./datasets.js";

export const EXPERIMENTS_DIR = "experiments";
export const RESULTS_DIR = "results";
export const JOURNAL_DIR = ".recollect/journal";
/** Where a user's experiment writes when no --out is given: this folder beside the experiment file. */
export const USER_OUTPUT_DIR = "recollect-out";

/**
 * Where an experiment's results, reports and EVALUATION.md go. The project's own experiments
 * (experiments/*.yaml of the working folder) write into the project, as `npm run check`
 * expects; any other experiment writes under --out, or recollect-out/ beside its file, so running
 * a user's experiment never touches the project's files.
 */
export interface Output {
  /** The folder results/, reports/ and EVALUATION.md are written under. */
  dir: string;
  /** The working folder's own layout: its JSON Schemas and FAILURE_ANALYSIS.md are kept current too. */
  project: boolean;
}

export function isProjectExperiment(file: string, cwd = process.cwd()): boolean {
  return resolve(dirname(file)) === resolve(cwd, EXPERIMENTS_DIR);
}

/** The output folder of `file`, as a path from the working folder `cwd`. */
export function outputFor(file: string, out: string | undefined, cwd = process.cwd()): Output {
  const dir = out ?? (isProjectExperiment(file, cwd) ? "." : join(dirname(file), USER_OUTPUT_DIR));
  return { dir, project: resolve(cwd, dir) === resolve(cwd) };
}

export const resultsFile = (name: string, dir = ".") => join(dir, RESULTS_DIR, `${name}.json`);

/**
 * The experiment files a command works on: those named, or every file in experiments/ of the
 * working folder (a project laid out as this one is). With none named and none there, the
 * command has nothing to run, and rather than write reports of nothing into whatever folder it
 * was started in, it says so.
 */
export function experimentFiles(files: string[], cwd = process.cwd()): string[] {
  if (files.length > 0) return files;
  const found = globSync(`${EXPERIMENTS_DIR}/*.yaml`, { cwd }).sort();
  if (found.length === 0) {
    throw new UsageError(`no experiment file named, and this folder has no ${EXPERIMENTS_DIR}/*.yaml to run by default: name the experiment files to run`);
  }
  return found;
}

/**
 * Loads an experiment as its runs (one per ask protocol it lists), or says why it must be skipped: with no files named, an experiment whose
 * dataset is absent is skipped with a message; named explicitly, the missing data is an error.
 */
export async function loadOrSkip(file: string, data: DataArgs, explicit: boolean): Promise<Experiment[] | { skipped: string }> {
  if (!explicit) {
    const reason = missingDataset(file, data);
    if (reason) return { skipped: reason };
  }
  return loadExperiments(file, datasetResolver(data));
}

/** Warnings go to standard error, beside the progress, so standard output stays the run's record. */
export const warnOn =
  (stderr: OutputStream): Log =>
  (line) =>
    stderr.write(`recollect: warning: ${line}\n`);
export const warnOnStderr: Log = warnOn(process.stderr);

/** One run of an experiment file to do (or to skip, saying why), and where it writes. */
export interface PlannedRun {
  file: string;
  loaded: Experiment | { skipped: string };
  output: Output;
}

/**
 * Loads (and so validates) every experiment file a command names before any runs, so a bad file
 * costs no run time, and warns once per file of what its loading found (a patch that changes nothing).
 */
export async function loadRuns(args: DataArgs & { files: string[]; out?: string }, warn: Log): Promise<PlannedRun[]> {
  const explicit = args.files.length > 0;
  const runs: PlannedRun[] = [];
  for (const file of experimentFiles(args.files)) {
    const loaded = await loadOrSkip(file, args, explicit);
    const output = outputFor(file, args.out);
    if (!("skipped" in loaded)) for (const line of loaded[0]?.warnings ?? []) warn(line);
    // Each run (one per ask protocol the file lists) records results of its own.
    for (const run of "skipped" in loaded ? [loaded] : loaded) runs.push({ file, loaded: run, output });
  }
  return runs;
}

/**
 * One line per distinct dataset import on what it read and repaired, keyed by the first run that
 * uses it. The runs of one file (one per ask protocol), and files over the same data, import it
 * alike, so the line is printed once, naming every run it serves, rather than once per run.
 */
export function importLines(experiments: readonly Experiment[]): Map<Experiment, string> {
  const groups = new Map<string, { first: Experiment; names: string[]; summary: string }>();
  for (const experiment of experiments) {
    const stats = importStatsSchema.safeParse(experiment.importStats);
    if (!stats.success) continue;
    const s = stats.data;
    const summary =
      `imported ${s.conversations} conversations (turns: ${s.turns}, observations: ${s.observations}), ` +
      `asking ${s.asked} of ${s.questions} questions in ${s.scenarios} scenarios; ${repairSummary(s)}`;
    const key = JSON.stringify([experiment.datasets.map((d) => d.sha256), summary]);
    const group = groups.get(key) ?? groups.set(key, { first: experiment, names: [], summary }).get(key)!;
    group.names.push(experiment.spec.name);
  }
  return new Map([...groups.values()].map(({ first, names, summary }) => [first, `${names.join(", ")}: ${summary}`]));
}

/**
 * The experiment file as results record it: relative to the project for the project's own
 * experiments, otherwise its name alone, so results never carry a machine's folders.
 */
export function recordedExperimentFile(file: string, cwd = process.cwd()): string {
  return isProjectExperiment(file, cwd) ? relative(cwd, resolve(file)).split("\\").join("/") : basename(file);
}

/** Runs an experiment's trials, reporting them on `bar` as a phase named after the experiment. */
export async function runExperiment(experiment: Experiment, options: RunOptions & { embeddingCache?: string }, bar: Progress): Promise<ExperimentResults> {
  const started = performance.now();
  const name = experiment.spec.name;
  bar.phase(name, undefined, "trials", "counting tokens");
  const embeddings = embeddingService({
    cacheFile: options.embeddingCache ?? DEFAULT_CACHE_FILE,
    ...experiment.spec.embedding,
    onProgress: (model, done, total) => {
      if (done === 0) bar.phase(name, total, "texts", `embedding with ${model} (the texts the cache does not hold)`);
      else bar.update(done);
      if (done === total) bar.phase(name, undefined, "trials", "starting workers");
    },
  });
  // The trials and the sweep share the threads (and so do a command's experiments, when it gives a pool).
  const pool = options.pool ?? new TrialPool(options.workers);
  try {
    return await runWith(experiment, { ...options, embed: embeddings.embed, pool }, bar, started);
  } finally {
    await embeddings.close();
    if (options.pool === undefined) await pool.close();
  }
}

async function runWith(experiment: Experiment, options: RunOptions, bar: Progress, started: number): Promise<ExperimentResults> {
  // The run prices every memory line once, in this thread, before the workers start, through the
  // cache of counts earlier runs made: the tokenizer is loaded only for a line none of them priced.
  // One counter for the trials and the sweep, so a line the trials priced is not counted again.
  const tokenCache = options.tokenCache ?? DEFAULT_TOKEN_CACHE_FILE;
  const counter = cachingCounter({ sha256: tokenizerSha256(), load: gemmaTokenizer }, tokenCache);
  try {
    return await runCounted(experiment, { ...options, tokenCache }, counter, bar, started);
  } finally {
    counter.close();
  }
}

async function runCounted(experiment: Experiment, options: RunOptions, counter: TokenCounter, bar: Progress, started: number): Promise<ExperimentResults> {
  let before: number | undefined;
  const trialsStarted = performance.now();
  const trials = await runTrials(experiment, {
    ...options,
    tokenizer: counter,
    onProgress: (done, total, trial) => {
      options.onProgress?.(done, total, trial);
      // Until a trial of this run finishes, the workers are still starting.
      before ??= done;
      bar.update(done, done > before ? "" : "starting workers", total);
    },
  });
  const trialsDone = performance.now();
  let sweep: ExperimentResults["sweep"];
  let sweepDone = trialsDone;
  if (experiment.sweep !== undefined) {
    bar.update(trials.length, `sweeping ${experiment.sweep.points.length} points`);
    sweep = await runSweep(experiment, {
      workers: options.workers,
      ...(options.pool === undefined ? {} : { pool: options.pool }),
      tokenizer: counter,
      ...(options.tokenCache === undefined ? {} : { tokenCache: options.tokenCache }),
      ...(options.embed === undefined ? {} : { embed: options.embed }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
    });
    sweepDone = performance.now();
  }
  bar.update(trials.length, "recording the manifest");
  const manifest = buildManifest({
    tokenizerSha256: tokenizerSha256(),
    datasets: experiment.datasets,
    experimentHash: experiment.hash,
    wallTimeMs: performance.now() - started,
  });
  if (sweep !== undefined) {
    // What the sweep cost beside the ordinary ablations: one ablation's trials against every point.
    manifest.ablationWallTimeMs = Math.round((trialsDone - trialsStarted) / experiment.ablations.length);
    manifest.sweepWallTimeMs = Math.round(sweepDone - trialsDone);
  }
  const results = buildResults(experiment, trials, manifest, recordedExperimentFile(experiment.file));
  return sweep === undefined ? results : { ...results, sweep };
}

export function recordedResultFiles(dir = "."): string[] {
  const folder = join(dir, RESULTS_DIR);
  // A sweep's chosen policy (<experiment>.preset.json) lives beside its results but is not results.
  return existsSync(folder)
    ? globSync("*.json", { cwd: folder, ignore: [`*${PRESET_SUFFIX}`] })
        .sort()
        .map((file) => join(folder, file))
    : [];
}
