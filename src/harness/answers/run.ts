/**
 * The answer-level evaluation: for every scenario of the experiment that has answer keys, every
 * condition and every seed, play an answer trial with the model behind the record/replay layer,
 * and gather the graded answers with a manifest that says which model and recordings made them.
 * Calls run one at a time: a local model server answers one request at a time anyway, and the
 * recording file is written after each call.
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { loadGemmaTokenizer } from "../../memory/index.js";
import { DEFAULT_IMPORTANCE_FALLBACK } from "../../agent/importance.js";
import { createRecordingClient } from "../../model/recorder.js";
import { readRecordings } from "../../model/recording-file.js";
import { REFLECTION_THRESHOLD } from "../../agent/reflection.js";
import type { ModelClient } from "../../model/types.js";
import { fileError, userError } from "../../shared/errors.js";
import { loadExperiment } from "../experiment/load.js";
import { buildManifest } from "../results/manifest.js";
import { playAnswerTrial } from "./play.js";
import { pruneRecordings, summariseRecordings, trackKeys } from "./recordings.js";
import { ANSWER_FORMAT, type AnswerResults, type AnswerTrial } from "./schema.js";
import { ANSWER_RUN, type AnswerRunSpec } from "./spec.js";

export interface AnswerRunOptions {
  /** Where the spec's relative paths start; the working folder by default. */
  root?: string;
  spec?: AnswerRunSpec;
  /** record: call the live server and store every call; replay: answer from the recordings only. */
  mode: "record" | "replay";
  /** The live client (record mode). */
  live?: ModelClient;
  /** The answering model (record mode); replay reads it from the recordings. */
  model?: string;
  /** Stamps recorded entries (record mode). */
  timestamp?: () => string;
  onTrial?: (done: number, total: number, trial: AnswerTrial) => void;
}

export type AnswerRunOutcome = { results: AnswerResults; droppedRecordings: number } | { skipped: string };

export function answerPath(root: string, path: string): string {
  return isAbsolute(path) ? path : join(root, path);
}

export async function runAnswerEvaluation(options: AnswerRunOptions): Promise<AnswerRunOutcome> {
  const root = options.root ?? process.cwd();
  const spec = options.spec ?? ANSWER_RUN;
  const recordingsFile = answerPath(root, spec.recordings);
  if (options.mode === "replay" && !existsSync(recordingsFile)) {
    return { skipped: `${spec.recordings} does not exist: record it with \`npm run record\` against a running Ollama` };
  }
  const recorded = options.mode === "replay" ? recordedCalls(recordingsFile, spec.recordings) : undefined;
  const model = recorded?.model ?? requireModel(options.model);

  const experiment = await loadExperiment(answerPath(root, spec.experiment));
  if (!recorded && spec.seeds > experiment.spec.seeds.length) {
    throw userError(`the answer-level run asks for ${spec.seeds} seeds, but ${spec.experiment} lists only ${experiment.spec.seeds.length}`);
  }
  // A replay runs the seeds that were recorded, however many the recording run was asked for.
  const seeds = recorded ? experiment.spec.seeds.filter((seed) => recorded.seeds.has(seed)) : experiment.spec.seeds.slice(0, spec.seeds);
  if (seeds.length === 0) throw fileError(spec.recordings, `holds no call for a seed of ${spec.experiment}: re-record it with \`npm run record\``);
  const conditions = spec.conditions.map((condition) => {
    const ablation = experiment.ablations.find((a) => a.name === condition.ablation);
    if (ablation?.policy === undefined) throw fileError(spec.experiment, `the answer-level run needs the ablation "${condition.ablation}" (for condition "${condition.name}")`);
    return { condition, policy: ablation.policy };
  });
  const scenarios = experiment.scenarios
    .map((s) => s.spec)
    .filter((s) => s.steps.some((step) => step.ask && step.ask.answers.length > 0));

  const client = trackKeys(
    options.mode === "record"
      ? createRecordingClient({ mode: "record", file: recordingsFile, live: options.live, timestamp: options.timestamp })
      : createRecordingClient({ mode: "replay", file: recordingsFile }),
  );
  const tokenizer = await loadGemmaTokenizer();
  const deps = { client, model, tokenizer, importanceFallback: DEFAULT_IMPORTANCE_FALLBACK, reflectionThreshold: REFLECTION_THRESHOLD };

  const total = scenarios.length * conditions.length * seeds.length;
  const trials: AnswerTrial[] = [];
  for (const scenario of scenarios) {
    for (const { condition, policy } of conditions) {
      for (const seed of seeds) {
        const trial = await playAnswerTrial({ scenario, condition, policy, seed, variation: experiment.spec.variation }, deps);
        trials.push(trial);
        options.onTrial?.(trials.length, total, trial);
      }
    }
  }

  // A re-recording keeps only the calls this run made, so the set names only the model that made them.
  const droppedRecordings = options.mode === "record" ? pruneRecordings(recordingsFile, client.usedKeys) : 0;
  const recordingsText = readFileSync(recordingsFile, "utf8");
  const summary = summariseRecordings(spec.recordings, recordingsText);
  const base = buildManifest({ tokenizerSha256: tokenizer.sha256, datasets: experiment.datasets, experimentHash: experiment.hash, wallTimeMs: 0 });
  const results: AnswerResults = {
    format: ANSWER_FORMAT,
    experiment: { name: experiment.spec.name, file: spec.experiment },
    model,
    seeds,
    conditions: conditions.map(({ condition }) => ({ ...condition })),
    reflectionThreshold: REFLECTION_THRESHOLD,
    importanceFallback: DEFAULT_IMPORTANCE_FALLBACK,
    manifest: {
      gitCommit: base.gitCommit,
      gitDirty: base.gitDirty,
      models: summary.models,
      recordings: { file: spec.recordings, sha256: summary.sha256, calls: summary.calls },
      experimentHash: experiment.hash,
      tokenizerSha256: tokenizer.sha256,
    },
    importance: {
      rated: trials.reduce((sum, t) => sum + t.importance.rated, 0),
      fallbacks: trials.reduce((sum, t) => sum + t.importance.fallbacks, 0),
    },
    trials,
  };
  return { results, droppedRecordings };
}

function requireModel(model: string | undefined): string {
  if (!model) throw new TypeError("record mode needs the model to answer with");
  return model;
}

/** The one chat model a recording set was made with, and the sampling seeds of its calls. */
function recordedCalls(file: string, shown: string): { model: string; seeds: Set<number> } {
  const chats = [...readRecordings(file, { mustExist: true }).values()].flatMap((e) => (e.request.kind === "chat" ? [e.request] : []));
  const models = new Set(chats.map((request) => request.model));
  if (models.size !== 1) {
    const found = models.size === 0 ? "none" : [...models].sort().join(", ");
    throw fileError(shown, `expected the chat calls of one model, found ${found}: re-record it with \`npm run record\``);
  }
  const seeds = new Set(chats.flatMap((request) => (typeof request.options.seed === "number" ? [request.options.seed] : [])));
  return { model: [...models][0]!, seeds };
}
