/**
 * The offline check of the answer-level run: replay every recorded call and compare the graded
 * answers with the recorded results. With no recordings there is nothing to check, unless results
 * claim to come from recordings that are missing.
 */
import { existsSync } from "node:fs";
import { compareAnswers } from "./compare.js";
import { readAnswers } from "./io.js";
import { answerPath, runAnswerEvaluation } from "./run.js";
import { ANSWER_RUN, type AnswerRunSpec } from "./spec.js";

export async function checkAnswers(options: { root?: string; spec?: AnswerRunSpec } = {}): Promise<string[]> {
  const root = options.root ?? process.cwd();
  const spec = options.spec ?? ANSWER_RUN;
  const resultsFile = answerPath(root, spec.results);
  const outcome = await runAnswerEvaluation({ root, spec, mode: "replay" });
  if ("skipped" in outcome) {
    return existsSync(resultsFile) ? [`answers: ${spec.results} exists but ${spec.recordings} does not; re-record both with \`npm run record\``] : [];
  }
  const recorded = readAnswers(resultsFile);
  if (!recorded) return [`answers: no recorded results at ${spec.results}; write them with \`npm run record\``];
  return compareAnswers(recorded, outcome.results);
}
