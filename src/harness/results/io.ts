import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import { fileError } from "../../shared/errors.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { readTextFile, SIZE_LIMITS } from "../../shared/read-file.js";
import { parseJson, readJsonFile } from "../../shared/read-json.js";
import { validate } from "../files/load-yaml.js";
import { storedResultsSchema } from "./schema.js";
import { type ExperimentResults, RESULTS_FORMAT, type Trial, VOLATILE_MANIFEST_FIELDS } from "./types.js";

interface Columns {
  ranks: (number | null)[][];
  coverage: (number | null)[];
  tokens: number[];
  leaked: Record<string, string[]>;
  returned?: number[];
}

type StoredTrial = { scenario: string; ablation: string; seed: number; skipped?: Trial["skipped"] } & ({ asks: Trial["asks"] } | { columns: Columns });

/** A trial as results store it: by column unless its asks carry detail, and without its latencies (see Timing). */
function encodeTrial(trial: Trial): StoredTrial {
  const head = { scenario: trial.scenario, ablation: trial.ablation, seed: trial.seed, ...(trial.skipped ? { skipped: trial.skipped } : {}) };
  if (trial.asks.some((a) => a.detail)) return { ...head, asks: trial.asks };
  const columns: Columns = {
    ranks: trial.asks.map((a) => a.ranks),
    coverage: trial.asks.map((a) => a.coverage),
    tokens: trial.asks.map((a) => a.tokens),
    leaked: Object.fromEntries(trial.asks.filter((a) => a.leaked.length > 0).map((a) => [a.ask, a.leaked])),
  };
  if (trial.asks.some((a) => a.returnedTokens !== undefined)) columns.returned = trial.asks.map((a) => a.returnedTokens ?? a.tokens);
  return { ...head, columns };
}

function decodeTrial(stored: StoredTrial, askIds: string[]): Trial {
  const head = { scenario: stored.scenario, ablation: stored.ablation, seed: stored.seed, ...(stored.skipped ? { skipped: stored.skipped } : {}) };
  if ("asks" in stored) return { ...head, asks: stored.asks };
  const c = stored.columns;
  return {
    ...head,
    asks: askIds.map((ask, i) => ({
      ask,
      ranks: c.ranks[i],
      coverage: c.coverage[i],
      leaked: c.leaked[ask] ?? [],
      tokens: c.tokens[i],
      ...(c.returned === undefined ? {} : { returnedTokens: c.returned[i] }),
    })),
  };
}

/**
 * The stored text: the experiment and manifest pretty-printed for review, one line per trial (or
 * per ask when asks carry detail), so a diff of two recordings points at what changed.
 */
export function serialiseResults(results: ExperimentResults): string {
  const indent = (json: string) => json.replace(/\n/g, "\n  ");
  const trials = results.trials.map((trial) => {
    const stored = encodeTrial(trial);
    if (!("asks" in stored)) return `    ${JSON.stringify(stored)}`;
    const { asks, ...head } = stored;
    const headText = JSON.stringify(head).slice(0, -1);
    return `    ${headText},"asks":[\n${asks.map((a) => `      ${JSON.stringify(a)}`).join(",\n")}\n    ]}`;
  });
  return [
    "{",
    `  "format": ${JSON.stringify(results.format)},`,
    `  "experiment": ${indent(JSON.stringify(results.experiment, null, 2))},`,
    `  "manifest": ${indent(JSON.stringify(results.manifest, null, 2))},`,
    `  "trials": [\n${trials.join(",\n")}\n  ]${results.sweep === undefined && results.timing === undefined ? "" : ","}`,
    ...(results.sweep === undefined ? [] : [`  "sweep": ${serialiseSweep(results.sweep)}${results.timing === undefined ? "" : ","}`]),
    ...(results.timing === undefined ? [] : [`  "timing": ${indent(JSON.stringify(results.timing, null, 2))}`]),
    "}",
    "",
  ].join("\n");
}

/** The sweep pretty-printed, with each point's values on one line. */
function serialiseSweep(sweep: NonNullable<ExperimentResults["sweep"]>): string {
  const { values, selection, ...head } = sweep;
  const headText = JSON.stringify(head, null, 2).replace(/\n/g, "\n  ").slice(0, -2);
  const lines = Object.entries(values).map(([id, row]) => `      ${JSON.stringify(id)}: ${JSON.stringify(row)}`);
  const selectionText = JSON.stringify(selection, null, 2).replace(/\n/g, "\n    ");
  return `${headText},\n    "values": {\n${lines.join(",\n")}\n    },\n    "selection": ${selectionText}\n  }`;
}

const RESULTS_FILE = { maxBytes: SIZE_LIMITS.json, what: "results file", hint: "re-record it with `npm run experiment`" };

export function parseResults(file: string, text: string): ExperimentResults {
  return decodeResults(file, parseJson(file, text, checkStoredResults, RESULTS_FILE));
}

/** The results in `file`, or undefined when there is no such file. */
export function readResults(file: string): ExperimentResults | undefined {
  if (!existsSync(file)) return undefined;
  return decodeResults(file, readJsonFile(file, checkStoredResults, RESULTS_FILE));
}

/** The text of a results file, refused with one message when it cannot be results (see readTextFile). */
export function readResultsText(file: string): string {
  return readTextFile(file, RESULTS_FILE);
}

/** Results of another format version are named as such before the schema would list every field that moved. */
function checkStoredResults(file: string, raw: unknown): z.output<typeof storedResultsSchema> {
  const format = (raw as { format?: unknown } | null)?.format;
  if (typeof format === "string" && format.startsWith("recollect-results/") && format !== RESULTS_FORMAT) {
    const older = Number(format.split("/")[1]) < Number(RESULTS_FORMAT.split("/")[1]);
    throw fileError(
      file,
      older
        ? `was recorded in an older results format (${format}); re-record it with \`npm run check -- --update\``
        : `was recorded by a newer recollect (${format}); update recollect to read it`,
    );
  }
  return validate(file, storedResultsSchema, raw, { syntax: "json" });
}

function decodeResults(file: string, stored: z.output<typeof storedResultsSchema>): ExperimentResults {
  const askIds = new Map(stored.experiment.scenarios.map((s) => [s.name, s.asks.map((a) => a.id)]));
  stored.trials.forEach((t, i) => {
    // Columns are read by position, so each must hold one entry per ask of a known scenario.
    if (!("columns" in t)) return;
    const asks = askIds.get(t.scenario);
    const lengths = [t.columns.ranks.length, t.columns.coverage.length, t.columns.tokens.length];
    if (asks === undefined) throw fileError(file, `at trials[${i}].scenario: "${t.scenario}" is not a scenario of the experiment`);
    if (lengths.some((n) => n !== asks.length)) throw fileError(file, `at trials[${i}].columns: expected ${asks.length} entries per column, one per ask`);
  });
  return {
    ...stored,
    trials: stored.trials.map((t) => decodeTrial(t as StoredTrial, askIds.get(t.scenario) ?? [])),
  } as ExperimentResults;
}

/** The results without the fields that describe the recording run (commit, wall times, call latencies). */
export function stableContent(results: ExperimentResults): string {
  const manifest: Record<string, unknown> = { ...results.manifest };
  for (const field of VOLATILE_MANIFEST_FIELDS) delete manifest[field];
  const { timing: _, ...rest } = results;
  return serialiseResults({ ...rest, manifest: manifest as unknown as ExperimentResults["manifest"] });
}

/**
 * Writes results atomically. When only the recording run's own fields would change, the file is
 * left as it is, so re-running an unchanged experiment leaves the work tree clean.
 */
export function writeResults(file: string, results: ExperimentResults): "written" | "unchanged" {
  const existing = existsSync(file) ? tryParse(file) : undefined;
  if (existing && stableContent(existing) === stableContent(results)) return "unchanged";
  writeFileAtomicSync(file, serialiseResults(results));
  return "written";
}

function tryParse(file: string): ExperimentResults | undefined {
  try {
    return parseResults(file, readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
