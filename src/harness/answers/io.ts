import { existsSync, readFileSync } from "node:fs";
import { prettyJson } from "../../model/canonical-json.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { fileError } from "../../shared/errors.js";
import { validate } from "../files/load-yaml.js";
import { answerResultsSchema, type AnswerResults, VOLATILE_ANSWER_FIELDS } from "./schema.js";

export function serialiseAnswers(results: AnswerResults): string {
  return prettyJson(results);
}

/** Parses the text of an answer results file; errors name the file and the path inside it. */
export function parseAnswers(file: string, text: string): AnswerResults {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw fileError(file, `not valid JSON (${(error as Error).message}); re-record it with \`npm run record\``, { cause: error });
  }
  return validate(file, answerResultsSchema, raw);
}

export function readAnswers(file: string): AnswerResults | undefined {
  return existsSync(file) ? parseAnswers(file, readFileSync(file, "utf8")) : undefined;
}

export function writeAnswers(file: string, results: AnswerResults): void {
  writeFileAtomicSync(file, serialiseAnswers(results));
}

/** The results without the fields that describe the run (commit, dirty work tree). */
export function stableAnswers(results: AnswerResults): string {
  const manifest: Record<string, unknown> = { ...results.manifest };
  for (const field of VOLATILE_ANSWER_FIELDS) delete manifest[field];
  return serialiseAnswers({ ...results, manifest: manifest as AnswerResults["manifest"] });
}
