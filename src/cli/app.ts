import { existsSync, statSync } from "node:fs";
import yargs, { type Argv } from "yargs";
import { UserError } from "../shared/errors.js";

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

export interface DataArgs {
  locomo: string;
  acceptLocomoHash: boolean;
}
export interface ExperimentArgs extends DataArgs {
  files: string[];
  workers?: number;
  resume: boolean;
  shard?: { index: number; count: number };
  /** Where results, reports and EVALUATION.md go (see cli/commands/pipeline.ts for the default). */
  out?: string;
}
export interface CheckArgs extends DataArgs {
  files: string[];
  workers?: number;
  update: boolean;
  out?: string;
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
export interface ChatArgs {
  seed: boolean;
  host?: string;
  model: string;
  embedModel?: string;
  timeoutMs: number;
  db?: string;
  message?: string;
}
export interface RecordArgs {
  host?: string;
  model: string;
  seeds: number;
  timeoutMs: number;
}
export interface BenchArgs {
  sizes: number[];
  queries: number;
  out: string;
  /** Also time the core experiment grid with one worker and with all. */
  grid: boolean;
  /** Also run the conversation benchmark rows (a few minutes). */
  conversations: boolean;
}

function parseShard(text: string | undefined): ExperimentArgs["shard"] {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || index > count) throw new UserError(`--shard expects i/n with 1 ≤ i ≤ n, got "${text}"`);
  return { index, count };
}

function positiveWorkers(value: number | undefined): number | undefined {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
    throw new UserError(`--workers expects a whole number of at least 1, got "${value}"`);
  }
  return value;
}

/** --out names a folder; an existing file there would make every write fail later. */
function outFolder(value: string | undefined): string | undefined {
  if (value !== undefined && existsSync(value) && !statSync(value).isDirectory()) {
    throw new UserError(`--out expects a folder, but ${value} is a file`);
  }
  return value;
}

const OUT_DESCRIPTION =
  "folder for results/, reports/ and EVALUATION.md (default: the project itself for experiments/*.yaml, recollect-out/ beside any other experiment file)";

const dataOptions = (y: Argv) =>
  y
    .option("locomo", { type: "string", default: "data/locomo10.json", describe: "path of the LoCoMo data file (locomo10.json)" })
    .option("accept-locomo-hash", { type: "boolean", default: false, describe: "accept a LoCoMo file whose sha256 differs from the pinned one" });

export function buildCli(argv: string[], handlers: Handlers): Argv {
  return yargs(argv)
    .scriptName("recollect")
    .strict()
    .demandCommand(1, "name a command")
    .command(
      "experiment [files..]",
      "run experiments (all of experiments/ by default), write results/ and regenerate the reports",
      (y) =>
        dataOptions(y)
          .positional("files", { type: "string", array: true, default: [] as string[] })
          .option("workers", { type: "number", describe: "worker threads (default: all cores)", coerce: positiveWorkers })
          .option("resume", { type: "boolean", default: true, describe: "continue an interrupted run" })
          .option("shard", { type: "string", describe: "run shard i/n of the grid and write it to results/shards/" })
          .option("out", { type: "string", describe: OUT_DESCRIPTION, coerce: outFolder }),
      (a) =>
        handlers.experiment({
          files: a.files as string[],
          workers: a.workers,
          resume: a.resume,
          shard: parseShard(a.shard),
          out: a.out,
          locomo: a.locomo,
          acceptLocomoHash: a.acceptLocomoHash,
        }),
    )
    .command(
      "check [files..]",
      "re-run the experiments offline and compare them with results/ and the reports",
      (y) =>
        dataOptions(y)
          .positional("files", { type: "string", array: true, default: [] as string[] })
          .option("workers", { type: "number", describe: "worker threads (default: all cores)", coerce: positiveWorkers })
          .option("update", { type: "boolean", default: false, describe: "re-record results and reports instead of failing" })
          .option("out", { type: "string", describe: OUT_DESCRIPTION, coerce: outFolder }),
      (a) =>
        handlers.check({
          files: a.files as string[],
          workers: a.workers,
          update: a.update,
          out: a.out,
          locomo: a.locomo,
          acceptLocomoHash: a.acceptLocomoHash,
        }),
    )
    .command(
      "merge <shards..>",
      "merge shard results into one results file",
      (y) => y.positional("shards", { type: "string", array: true, demandOption: true }).option("out", { type: "string" }),
      (a) => handlers.merge({ shards: a.shards as string[], out: a.out }),
    )
    .command("demo", "the per-kind retrieval demo", (y) => y, () => handlers.demo())
    .command(
      "chat",
      "chat with memory through a local Ollama server",
      (y) =>
        y
          .option("seed", { type: "boolean", default: false, describe: "preload a few memories and ask one question" })
          .option("host", { type: "string", describe: "Ollama host (default: $OLLAMA_HOST or http://127.0.0.1:11434)" })
          .option("model", { type: "string", default: "gemma4:e2b" })
          .option("embed-model", { type: "string", describe: "embedding model; turns on the embedding relevance backend" })
          .option("timeout-ms", { type: "number", default: 120_000 })
          .option("db", { type: "string", describe: "SQLite file for the memories (default: a temporary file)" })
          .option("message", { type: "string", describe: "send one message and exit" }),
      (a) =>
        handlers.chat({
          seed: a.seed,
          host: a.host,
          model: a.model,
          embedModel: a.embedModel,
          timeoutMs: a.timeoutMs,
          db: a.db,
          message: a.message,
        }),
    )
    .command(
      "record",
      "re-record the answer-level evaluation with a live Ollama server",
      (y) =>
        y
          .option("host", { type: "string" })
          .option("model", { type: "string", default: "gemma4:e2b" })
          .option("seeds", { type: "number", default: 5 })
          .option("timeout-ms", { type: "number", default: 120_000 }),
      (a) => handlers.record({ host: a.host, model: a.model, seeds: a.seeds, timeoutMs: a.timeoutMs }),
    )
    .command(
      "bench",
      "measure retrieval latency and ingest rate against SQLite FTS5",
      (y) =>
        y
          .option("sizes", { type: "number", array: true, default: [1_000, 10_000, 100_000, 1_000_000] })
          .option("queries", { type: "number", default: 200 })
          .option("out", { type: "string", default: "reports/bench" })
          .option("grid", { type: "boolean", default: false, describe: "also time the core experiment grid" })
          .option("conversations", { type: "boolean", default: true, describe: "also time a generated 418-conversation benchmark and a 30 MB import" }),
      (a) => handlers.bench({ sizes: a.sizes as number[], queries: a.queries, out: a.out, grid: a.grid, conversations: a.conversations }),
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
    .help();
}
