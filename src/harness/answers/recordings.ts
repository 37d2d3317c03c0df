/**
 * What a recording set says about itself: which models answered (name and digest), how many
 * calls it holds and when they were recorded. Read from the file's text, so the report stays a
 * pure function of files on disk. Also: a client wrapper that notes the keys a run used, so a
 * re-recording can drop entries no longer asked for.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { readRecordings, recordingKey, writeRecordings } from "../../model/recording-file.js";
import { chatKey, embedKey } from "../../model/recorder.js";
import type { ChatRequest, EmbedRequest, ModelClient } from "../../model/types.js";
import { parseJson } from "../../shared/read-json.js";
import { schemaCheck } from "../files/load-yaml.js";

/** The slice of a recording file the summary reads; the model layer validates the rest on load. */
const summarySchema = z.object({
  version: z.literal(1),
  entries: z.record(
    z.string(),
    z.object({
      request: z.object({ kind: z.enum(["chat", "embed"]), model: z.string() }),
      model: z.object({ name: z.string(), digest: z.string().nullable() }),
      recordedAt: z.string(),
    }),
  ),
});

export interface RecordingSummary {
  file: string;
  sha256: string;
  calls: number;
  /** Distinct models that answered, sorted by name. */
  models: { name: string; digest: string | null }[];
  /** Earliest and latest recordedAt (ISO 8601), or null for an empty set. */
  firstAt: string | null;
  lastAt: string | null;
}

const checkSummary = schemaCheck(summarySchema);

/** Summarises a recording set's text; text that is not one is a file error naming the file and the path inside it. */
export function summariseRecordings(file: string, text: string): RecordingSummary {
  const entries = Object.values(parseJson(file, text, checkSummary).entries);
  const models = new Map<string, { name: string; digest: string | null }>();
  for (const entry of entries) models.set(`${entry.model.name}\u0000${entry.model.digest}`, entry.model);
  const times = entries.map((e) => e.recordedAt).sort();
  return {
    file,
    sha256: sha256(text),
    calls: entries.length,
    models: [...models.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    firstAt: times[0] ?? null,
    lastAt: times.at(-1) ?? null,
  };
}

/**
 * Whether a digest is the sha256 of real weights, as Ollama's model list gives it (64 hex digits,
 * with or without a "sha256:" prefix). Anything else (a test double's made-up digest, none at
 * all) is not counted as a real model's recording.
 */
export function isRealDigest(digest: string | null): boolean {
  return digest !== null && /^(sha256:)?[0-9a-f]{64}$/.test(digest);
}

export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A client that passes every call through and notes the recording key of each. */
export interface KeyTrackingClient extends ModelClient {
  readonly usedKeys: ReadonlySet<string>;
}

export function trackKeys(client: ModelClient): KeyTrackingClient {
  const usedKeys = new Set<string>();
  return {
    host: client.host,
    usedKeys,
    chat(request: ChatRequest) {
      usedKeys.add(recordingKey(chatKey(request)));
      return client.chat(request);
    },
    embed(request: EmbedRequest) {
      usedKeys.add(recordingKey(embedKey(request)));
      return client.embed(request);
    },
    listModels: () => client.listModels(),
  };
}

/** Drops the entries of a recording set that `keep` does not hold; returns how many were dropped. */
export function pruneRecordings(file: string, keep: ReadonlySet<string>): number {
  const entries = readRecordings(file, { mustExist: false });
  const kept = new Map([...entries].filter(([key]) => keep.has(key)));
  if (kept.size !== entries.size) writeRecordings(file, kept);
  return entries.size - kept.size;
}
