/** The model layer's public API: one client, record/replay, and the model-backed parts of memory. */
export * from "./types.js";
export * from "./errors.js";
export * from "./options.js";
export { OllamaClient, createOllamaClient } from "./client.js";
export { checkServer, findModel } from "./server-check.js";
export { RECORD_MODES, RecordingClient, chatKey, createRecordingClient, embedKey } from "./recorder.js";
export type { RecordMode, RecorderOptions } from "./recorder.js";
export { readRecordings, recordingKey, writeRecordings } from "./recording-file.js";
export type { KeyedRequest, RecordingEntry } from "./recording-file.js";
export * from "./importance.js";
export * from "./reflection.js";
export { parseInsights, parseQuestions } from "./reflection-parse.js";
export type { ParsedInsight } from "./reflection-parse.js";
export * from "./grade.js";
export * from "./embedder.js";
export * from "./chat-loop.js";
export * from "./chat-command.js";
