/** The answer-level evaluation: graded model answers per condition and seed, from recorded calls. */
export * from "./spec.js";
export * from "./schema.js";
export { parseAnswers, readAnswers, serialiseAnswers, stableAnswers, writeAnswers } from "./io.js";
export { compareAnswers } from "./compare.js";
export { playAnswerTrial, type AnswerTrialDeps, type AnswerTrialInput } from "./play.js";
export { isRealDigest, pruneRecordings, sha256, summariseRecordings, trackKeys, type KeyTrackingClient, type RecordingSummary } from "./recordings.js";
export { answerPath, runAnswerEvaluation, type AnswerRunOptions, type AnswerRunOutcome } from "./run.js";
export { answerAccuracy, ANSWER_STATISTICS_SEED, type ConditionAccuracy } from "./summary.js";
export { checkAnswers } from "./replay-check.js";
