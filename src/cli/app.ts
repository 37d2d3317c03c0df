import yargs, { type Argv } from "yargs";
import { CLIENT_DEFAULTS, DEFAULT_CHAT_MODEL } from "../model/options.js";
import { REFLECTION_THRESHOLD } from "../agent/reflection.js";
import { flagError, UsageError } from "../shared/errors.js";
import { checkOutputFolder } from "../shared/output-folder.js";
import { parseShard, type ShardChoice } from "./shard.js";

/** What each command does; the CLI only parses arguments and calls these (as evalite's CLI does). */
export interface Handlers {
  experiment(args: ExperimentArgs): Promise<void>;
  check(args: CheckArgs): Promise<void>;
  merge(args: MergeArgs): Promise<void>;
  demo(): Promise<void>;
  chat(args: ChatArgs): Promise<void>;
  record(args: RecordArgs): Promise<void>;
  bench(args: BenchArgs): Promise<void>;
  convert(args: ConvertArgs): Promise<void>;
}

/** Where a command writes its lines (standard output, or a warning on standard error). */
export type Log = (line: string) => void;

/** A stream the command line writes to: the process's own, or a test's. Only a terminal redraws a progress bar. */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * What one run of the command line reads and writes. The binary passes its process's own; a test
 * passes its sandbox and streams that keep what is written, and runs the same code in its process.
 */
export interface CliIo {
  /** The working folder, against which every relative path a user gives is read. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout: OutputStream;
  stderr: OutputStream;
  /** The lines of an interactive chat; the process's standard input when not given. */
  stdin?: NodeJS.ReadableStream;
}

export interface DataArgs {
  locomo: string;
  acceptLocomoHash: boolean;
}
/** What a run does when a memory system fails a trial: stop with its error, or skip the trial and go on. */
export type OnSystemError = "stop" | "skip";

export interface ExperimentArgs extends DataArgs {
  files: string[];
  workers?: number;
  onSystemError: OnSystemError;
  /** The embedding cache file (default .recollect/embeddings.db). */
  embeddingCache?: string;
  resume: boolean;
  /** The shard to run; from `--shard auto`, with where in the environment it was read. */
  shard?: ShardChoice;
  /** Where results, reports and EVALUATION.md go (see cli/commands/pipeline.ts for the default). */
  out?: string;
}
export interface CheckArgs extends DataArgs {
  files: string[];
  workers?: number;
  onSystemError: OnSystemError;
  /** The embedding cache file (default .recollect/embeddings.db). */
  embeddingCache?: string;
  update: boolean;
  out?: string;
  /** A file to write what the check found to, as JSON for CI systems. */
  json?: string;
  /** A file to write what the check found to, as JUnit XML for CI systems. */
  junit?: string;
  /**
   * Pass a change whose every headline shift has its 95% interval within ±tolerance, in the
   * metric's own units (see harness/results/review.ts).
   */
  tolerance?: number;
  /**
   * Re-run only this many conversations of each dataset experiment, taking the others' trials from
   * the recording (see harness/runner/sample.ts); every hand-made scenario still runs.
   */
  sample?: number;
}
export interface ConvertArgs {
  from: "locomo";
  input: string;
  output: string;
  categories?: number[];
}
export interface MergeArgs {
  shards: string[];
  out?: string;
}
export interface ModelArgs {
  host?: string;
  model: string;
  timeoutMs: number;
  maxReplyBytes: number;
}
export interface ChatArgs extends ModelArgs {
  seed: boolean;
  embedModel?: string;
  embedUrl?: string;
  embeddingCache?: string;
  db?: string;
  message?: string;
  policy?: string;
  reflectionThreshold: number;
}
export interface RecordArgs extends ModelArgs {
  seeds: number;
}
export interface BenchArgs {
  sizes: number[];
  queries: number;
  out: string;
  /** Also time the core experiment grid with one worker and with all. */
  grid: boolean;
  /** Also run the conversation benchmark rows (a few minutes). */
  conversations: boolean;
  /** Texts the in-process encoder rows embed on each backend; 0 skips them. */
  embeddingTexts: number;
}


/** A coerce for a numeric flag: its value, or the one-line error saying what it expects. */
function numberFlag(flag: string, expected: string, ok: (value: number) => boolean) {
  return (value: number): number => {
    if (!ok(value)) throw flagError(flag, expected, value);
    return value;
  };
}
const wholeAtLeast = (flag: string, min: number) =>
  numberFlag(flag, `a whole number of at least ${min}`, (v) => Number.isSafeInteger(v) && v >= min);
const positive = (flag: string, unit: string) =>
  numberFlag(flag, `a positive number of ${unit}`, (v) => Number.isFinite(v) && v > 0);

/**
 * --out names a folder that can take files, checked as the flag is read: otherwise a folder that
 * cannot be written fails only after every trial has run, and one on /proc never returns.
 */
function outFolder(value: string | undefined): string | undefined {
  if (value !== undefined) checkOutputFolder(value);
  return value;
}

/** The same check for a folder flag with a default, whose value is always there. */
function outFolderWithDefault(value: string): string {
  checkOutputFolder(value);
  return value;
}

const OUT_DESCRIPTION =
  "folder for results/, reports/ and EVALUATION.md (default: the project itself for experiments/*.yaml, recollect-out/ beside any other experiment file)";

const dataOptions = <T>(y: Argv<T>) =>
  y
    .option("locomo", { type: "string", default: "data/locomo10.json", describe: "path of the LoCoMo data file (locomo10.json)" })
    .option("accept-locomo-hash", { type: "boolean", default: false, describe: "accept a LoCoMo file whose sha256 differs from the pinned one" });

const filesPositional = <T>(y: Argv<T>) =>
  y.positional("files", {
    type: "string",
    array: true,
    default: [] as string[],
    describe: "experiment files (YAML); every experiments/*.yaml when none is named",
  });

const workersOption = <T>(y: Argv<T>) =>
  y
    .option("workers", { type: "number", describe: "worker threads (default: all cores); results do not depend on it", coerce: wholeAtLeast("--workers", 1) })
    .option("embedding-cache", {
      type: "string",
      describe: "the SQLite file that keeps every embedding, shared by runs (default .recollect/embeddings.db)",
    })
    .option("on-system-error", {
      choices: ["stop", "skip"] as const,
      default: "stop" as const,
      describe: "when a memory system crashes, hangs or answers wrongly: stop the run (the journal keeps what finished), or skip that trial, score its asks as empty retrievals and count it in the report",
    });

const modelOptions = <T>(y: Argv<T>) =>
  y
    .option("host", { type: "string", describe: "Ollama host (default: $OLLAMA_HOST, else http://127.0.0.1:11434)" })
    .option("model", { type: "string", default: DEFAULT_CHAT_MODEL, describe: "the chat model, as Ollama names it" })
    .option("timeout-ms", { type: "number", default: CLIENT_DEFAULTS.timeoutMs, describe: "budget of one model call in milliseconds (a first call may load the model)", coerce: positive("--timeout-ms", "milliseconds") })
    .option("max-reply-bytes", { type: "number", default: CLIENT_DEFAULTS.maxReplyBytes, describe: "longest model reply accepted, in bytes; a longer one is stopped", coerce: wholeAtLeast("--max-reply-bytes", 1) });

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * `env` is where `--shard auto` reads its shard: the process's environment, or a test's; `print`
 * is where the help shown for no command goes.
 */
export function buildCli(
  argv: string[],
  handlers: Handlers,
  env: Readonly<Record<string, string | undefined>> = process.env,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Argv {
  const cli: Argv = yargs(argv)
    .scriptName("recollect")
    .usage("$0 <command> [options]\n\nAn evaluation and ablation harness for agent memory.")
    .strict()
    // yargs makes a single-valued flag given twice a list, which no handler of one value expects.
    .middleware((argv) => {
      // getOptions() is yargs' own record of the options declared, which its typings leave out.
      const lists = new Set((cli as unknown as { getOptions(): { array: string[] } }).getOptions().array);
      for (const [key, value] of Object.entries(argv)) {
        if (Array.isArray(value) && key.length > 1 && !key.includes("-") && key !== "_" && !lists.has(key)) {
          const flag = `--${kebab(key)}`;
          throw new UsageError(`${flag} is given ${value.length} times; give it once`, { flag });
        }
      }
    }, true)
    .command("$0", false, (y) => y, () => {
      // No command: show what there is, rather than only that something is missing.
      cli.showHelp((text) => print(`${text}\n`));
    })
    .command(
      "experiment [files..]",
      "run experiments, write results/ and regenerate the reports",
      (y) =>
        workersOption(dataOptions(filesPositional(y)))
          .option("resume", { type: "boolean", default: true, hidden: true })
          .option("no-resume", { type: "boolean", describe: "start afresh, ignoring the journal of an interrupted run" })
          .option("shard", {
            type: "string",
            describe:
              "run shard i/n of the grid only and write it to results/shards/ (join them with merge); auto reads it from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, JOB_COMPLETIONS) or a CI matrix (RECOLLECT_SHARD_INDEX, RECOLLECT_SHARD_TOTAL), 0-based",
          })
          .option("out", { type: "string", describe: OUT_DESCRIPTION, coerce: outFolder }),
      (a) =>
        handlers.experiment({
          files: a.files as string[],
          workers: a.workers,
          onSystemError: a.onSystemError,
          ...(a.embeddingCache === undefined ? {} : { embeddingCache: a.embeddingCache }),
          resume: a.resume,
          shard: parseShard(a.shard, env),
          out: a.out,
          locomo: a.locomo,
          acceptLocomoHash: a.acceptLocomoHash,
        }),
    )
    .command(
      "check [files..]",
      "re-run the experiments offline and compare them with results/ and the reports",
      (y) =>
        workersOption(dataOptions(filesPositional(y)))
          .option("update", { type: "boolean", default: false, describe: "re-record results and reports instead of failing" })
          .option("json", { type: "string", describe: "also write what the check found to this file as JSON (each changed experiment's headline shifts and policy changes, and every problem)" })
          .option("junit", { type: "string", describe: "also write what the check found to this file as JUnit XML (a suite per experiment, a case per headline metric of each ablation)" })
          .option("tolerance", {
            type: "number",
            describe: "pass when every headline shift's 95% interval lies within ±X (in the metric's units: 0.01 is one point of recall); other differences still fail",
            coerce: numberFlag("--tolerance", "a number of at least 0 (the largest headline shift to pass, e.g. 0.01)", (v) => Number.isFinite(v) && v >= 0),
          })
          .option("sample", {
            type: "number",
            describe:
              "a quicker check: re-run only N of each dataset experiment's conversations (spread evenly over them) and take the others' trials and sweep values from the recording; hand-made scenarios and reports are still checked in full (not with --update or --tolerance)",
            coerce: wholeAtLeast("--sample", 1),
          })
          .option("out", { type: "string", describe: OUT_DESCRIPTION, coerce: outFolder }),
      (a) =>
        handlers.check({
          files: a.files as string[],
          workers: a.workers,
          onSystemError: a.onSystemError,
          ...(a.embeddingCache === undefined ? {} : { embeddingCache: a.embeddingCache }),
          update: a.update,
          out: a.out,
          ...(a.json === undefined ? {} : { json: a.json }),
          ...(a.junit === undefined ? {} : { junit: a.junit }),
          ...(a.tolerance === undefined ? {} : { tolerance: a.tolerance }),
          ...(a.sample === undefined ? {} : { sample: a.sample }),
          locomo: a.locomo,
          acceptLocomoHash: a.acceptLocomoHash,
        }),
    )
    .command(
      "merge <shards..>",
      "merge shard results into one results file",
      (y) =>
        y
          .positional("shards", { type: "string", array: true, demandOption: true, describe: "every shard of one grid, as written by experiment --shard i/n" })
          .option("out", { type: "string", describe: "where to write the merged results (default: results/<experiment>.json)" }),
      (a) => handlers.merge({ shards: a.shards as string[], out: a.out }),
    )
    .command("demo", "the per-kind retrieval demo (its output is recorded in results/demo.txt)", (y) => y, () => handlers.demo())
    .command(
      "chat",
      "chat with memory through a local Ollama server: one message per line, or --message",
      (y) =>
        modelOptions(y)
          .option("seed", { type: "boolean", default: false, describe: "preload a few demo memories and ask one question (or --message)" })
          .option("embed-model", {
            type: "string",
            describe: "embedding model id: use-lite (in this process, offline; the default), ollama:<model> or openai:<model>; a --policy that ranks by words or BM25 then ranks by embedding",
          })
          .option("embed-url", { type: "string", describe: "the embedding server: an Ollama host for ollama:<model> (default: the chat's --host), an OpenAI-compatible base URL for openai:<model>" })
          .option("embedding-cache", { type: "string", describe: "the SQLite file that keeps every embedding (default .recollect/embeddings.db)" })
          .option("db", { type: "string", describe: "SQLite file for the memories, kept between chats (default: a temporary file)" })
          .option("message", { type: "string", describe: "send one message, print the answer and exit" })
          .option("policy", { type: "string", describe: "a retrieval policy preset file (JSON, see README); the full system by default" })
          .option("reflection-threshold", {
            type: "number",
            default: REFLECTION_THRESHOLD,
            describe: "reflect once the model-rated importance of new memories adds up to this",
            coerce: positive("--reflection-threshold", "importance points"),
          }),
      (a) =>
        handlers.chat({
          seed: a.seed,
          host: a.host,
          model: a.model,
          embedModel: a.embedModel,
          ...(a.embedUrl === undefined ? {} : { embedUrl: a.embedUrl }),
          ...(a.embeddingCache === undefined ? {} : { embeddingCache: a.embeddingCache }),
          timeoutMs: a.timeoutMs,
          maxReplyBytes: a.maxReplyBytes,
          db: a.db,
          message: a.message,
          policy: a.policy,
          reflectionThreshold: a.reflectionThreshold,
        }),
    )
    .command(
      "record",
      "re-record the answer-level evaluation with a live Ollama server",
      (y) =>
        modelOptions(y).option("seeds", {
          type: "number",
          default: 5,
          describe: "how many of the core experiment's seeds to record (the first ones)",
          coerce: wholeAtLeast("--seeds", 1),
        }),
      (a) => handlers.record({ host: a.host, model: a.model, seeds: a.seeds, timeoutMs: a.timeoutMs, maxReplyBytes: a.maxReplyBytes }),
    )
    .command(
      "bench",
      "measure retrieval latency, ingest rate and grid wall time against SQLite FTS5",
      (y) =>
        y
          .option("sizes", {
            type: "number",
            array: true,
            default: [1_000, 10_000, 100_000, 1_000_000],
            describe: "store sizes to measure, in memories",
            coerce: (sizes: number[]) => {
              const bad = sizes.find((s) => !Number.isSafeInteger(s) || s < 1);
              if (sizes.length === 0 || bad !== undefined) throw flagError("--sizes", "whole numbers of memories, each at least 1", sizes.join(" "));
              return sizes;
            },
          })
          .option("queries", { type: "number", default: 200, describe: "queries timed per store size", coerce: wholeAtLeast("--queries", 1) })
          .option("out", { type: "string", default: "reports/bench", describe: "folder for bench.md and bench.json", coerce: outFolderWithDefault })
          .option("grid", { type: "boolean", default: false, describe: "also time the core experiment grid" })
          .option("conversations", { type: "boolean", default: true, describe: "also time a generated 418-conversation benchmark and a 30 MB import" })
          .option("embedding-texts", {
            type: "number",
            default: 200,
            describe: "texts the in-process encoder embeds on each backend it is timed on, plain JavaScript first (0 skips these rows)",
            coerce: wholeAtLeast("--embedding-texts", 0),
          }),
      (a) => handlers.bench({ sizes: a.sizes as number[], queries: a.queries, out: a.out, grid: a.grid, conversations: a.conversations, embeddingTexts: a.embeddingTexts }),
    )
    .command(
      "convert <from> <input> <output>",
      "convert a benchmark file to conversation JSON Lines (.jsonl, or .jsonl.gz to compress)",
      (y) =>
        y
          .positional("from", { type: "string", choices: ["locomo"] as const, demandOption: true, describe: "the input's format" })
          .positional("input", { type: "string", demandOption: true, describe: "the file to convert, such as data/locomo10.json" })
          .positional("output", { type: "string", demandOption: true, describe: "the JSON Lines file to write" })
          .option("categories", { type: "number", array: true, describe: "LoCoMo question categories to keep (default: all, 1–5)" }),
      (a) => handlers.convert({ from: a.from as "locomo", input: a.input as string, output: a.output as string, categories: a.categories as number[] | undefined }),
    )
    .help()
    .alias("help", "h");
  return cli;
}
