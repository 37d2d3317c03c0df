/**
 * JSON from a file a user named: one place that turns text that is not JSON into a message
 * naming the file, then hands the data to the caller's check. shared/ knows no schema library, so
 * the check is the caller's: the harness validates with its zod schemas and names the path inside
 * the file (see schemaCheck in harness/files/load-yaml.ts).
 */
import { fileError } from "./errors.js";
import { type ReadOptions, readTextFile } from "./read-file.js";

/** The data as the caller's type, or a file error naming `where` and the first thing wrong with it. */
export type JsonCheck<T> = (where: string, data: unknown) => T;

export interface JsonOptions {
  /** What to do about a file that is not JSON, for the message: "re-record it with `npm run record`". */
  hint?: string;
}

/** Parses JSON already read from `where` (a file, or "file:line" for JSON Lines) and checks it. */
export function parseJson<T>(where: string, text: string, check: JsonCheck<T>, options: JsonOptions = {}): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw fileError(where, `not valid JSON (${(error as Error).message})${options.hint === undefined ? "" : `; ${options.hint}`}`, { cause: error });
  }
  return check(where, data);
}

/** Reads a JSON file with every check of readTextFile, parses it and checks it. */
export function readJsonFile<T>(file: string, check: JsonCheck<T>, options: ReadOptions & JsonOptions): T {
  return parseJson(file, readTextFile(file, options), check, options);
}
