/**
 * A recording set on disk: one pretty-printed JSON file (recordings/<name>.json) mapping each
 * request key to the request, the response, the model's reported name and digest, and when it
 * was recorded. Entries are validated on load, including that each key still matches its request.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { writeFileAtomicSync } from "../shared/atomic-write.js";
import { canonicalJson, prettyJson } from "./canonical-json.js";
import { recordingsInvalid, recordingsMissing } from "./errors.js";

const messageSchema = z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() });
const optionsSchema = z.record(z.string(), z.unknown());

const chatKeySchema = z.object({
  kind: z.literal("chat"),
  model: z.string(),
  messages: z.array(messageSchema),
  options: optionsSchema,
  think: z.boolean().optional(),
});
const embedKeySchema = z.object({
  kind: z.literal("embed"),
  model: z.string(),
  input: z.array(z.string()),
  options: optionsSchema,
});

/** Everything that decides a call's answer; its hash is the recording key. */
export type KeyedRequest = z.infer<typeof chatKeySchema> | z.infer<typeof embedKeySchema>;

const entrySchema = z.object({
  request: z.discriminatedUnion("kind", [chatKeySchema, embedKeySchema]),
  response: z.union([
    z.object({ content: z.string() }).strict(),
    z.object({ embeddings: z.array(z.array(z.number())) }).strict(),
  ]),
  model: z.object({ name: z.string(), digest: z.string().nullable() }),
  recordedAt: z.string(),
});
export type RecordingEntry = z.infer<typeof entrySchema>;

const fileSchema = z.object({ version: z.literal(1), entries: z.record(z.string(), entrySchema) });

/** sha256 of the canonical JSON of the request: kind, model, messages or input, options (seed included). */
export function recordingKey(request: KeyedRequest): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

export function readRecordings(file: string, { mustExist }: { mustExist: boolean }): Map<string, RecordingEntry> {
  if (!existsSync(file)) {
    if (mustExist) throw recordingsMissing(file);
    return new Map();
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw recordingsInvalid(file, `it is not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw recordingsInvalid(file, `at ${issue.path.join(".") || "the top level"}: ${issue.message}`);
  }
  const entries = new Map(Object.entries(parsed.data.entries));
  for (const [key, entry] of entries) {
    if ((entry.request.kind === "chat") !== ("content" in entry.response)) {
      throw recordingsInvalid(file, `entry ${key} holds the wrong kind of response for a ${entry.request.kind} call`);
    }
    const expected = recordingKey(entry.request);
    if (expected !== key) {
      throw recordingsInvalid(file, `entry ${key} does not match its request (its key would be ${expected}); re-record it`);
    }
  }
  return entries;
}

export function writeRecordings(file: string, entries: ReadonlyMap<string, RecordingEntry>): void {
  writeFileAtomicSync(file, prettyJson({ version: 1, entries: Object.fromEntries(entries) }));
}
