import { existsSync } from "node:fs";
import { prettyJson } from "../../model/canonical-json.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { SIZE_LIMITS } from "../../shared/read-file.js";
import { parseJson, readJsonFile } from "../../shared/read-json.js";
import { schemaCheck } from "../files/load-yaml.js";
import { answerResultsSchema, type AnswerResults, VOLATILE_ANSWER_FIELDS } from "./schema.js";

export function serialiseAnswers(results: AnswerResults): string {
  return prettyJson(results);
}

const checkAnswers = schemaCheck(answerResultsSchema);
const ANSWERS_FILE = { maxBytes: SIZE_LIMITS.json, what: "answer results file", hint: "re-record it with `npm run record`" };

/** Parses the text of an answer results file; errors name the file and the path inside it. */
export function parseAnswers(file: string, text: string): AnswerResults {
  return parseJson(file, text, checkAnswers, ANSWERS_FILE);
}

export function readAnswers(file: string): AnswerResults | undefined {
  return existsSync(file) ? readJsonFile(file, checkAnswers, ANSWERS_FILE) : undefined;
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
