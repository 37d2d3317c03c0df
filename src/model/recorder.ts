/**
 * Record and replay of model calls. `record` calls the live client and stores every answer;
 * `replay` answers only from the recording set and never touches the network; `live` passes
 * calls straight through. Keys include the sampling seed, so runs with different seeds never
 * share one recorded answer.
 */
import { replayMiss } from "./errors.js";
import {
  readRecordings,
  recordingKey,
  writeRecordings,
  type KeyedRequest,
  type RecordingEntry,
} from "./recording-file.js";
import { findModel } from "./server-check.js";
import type { ChatReply, ChatRequest, EmbedReply, EmbedRequest, ModelClient, ModelInfo } from "./types.js";

export type RecordMode = "record" | "replay" | "live";

export interface RecorderOptions {
  mode: RecordMode;
  /** The recording set, e.g. recordings/chat-demo.json. Unused in live mode. */
  file: string;
  /** The live client; required for record and live modes, never used in replay. */
  live?: ModelClient;
  /** Stamps recorded entries (ISO 8601); required in record mode. The caller owns the clock. */
  timestamp?: () => string;
}

export function chatKey(request: ChatRequest): KeyedRequest {
  return {
    kind: "chat",
    model: request.model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    options: { ...request.options },
    ...(request.think === undefined ? {} : { think: request.think }),
  };
}

export function embedKey(request: EmbedRequest): KeyedRequest {
  return { kind: "embed", model: request.model, input: [...request.input], options: { ...request.options } };
}

/** Returns a client that records, replays, or (live) is the live client itself. */
export function createRecordingClient(options: RecorderOptions): ModelClient {
  if (options.mode === "live") return requireLive(options);
  return new RecordingClient(options);
}

class RecordingClient implements ModelClient {
  readonly host: string;
  private entries: Map<string, RecordingEntry> | undefined;
  private digests: Promise<ModelInfo[]> | undefined;

  constructor(private readonly options: RecorderOptions) {
    if (options.mode === "record") {
      requireLive(options);
      if (!options.timestamp) throw new TypeError("record mode needs a timestamp source");
    }
    this.host = options.mode === "record" ? requireLive(options).host : options.file;
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const keyed = chatKey(request);
    const entry = await this.answer(keyed, async () => {
      const reply = await requireLive(this.options).chat(request);
      return { response: { content: reply.content }, reportedModel: reply.model };
    });
    if (!("content" in entry.response)) throw this.kindMismatch(keyed);
    return { content: entry.response.content, model: entry.model.name };
  }

  async embed(request: EmbedRequest): Promise<EmbedReply> {
    const keyed = embedKey(request);
    const entry = await this.answer(keyed, async () => {
      const reply = await requireLive(this.options).embed(request);
      return { response: { embeddings: reply.embeddings }, reportedModel: reply.model };
    });
    if (!("embeddings" in entry.response)) throw this.kindMismatch(keyed);
    return { embeddings: entry.response.embeddings, model: entry.model.name };
  }

  /** Replay lists the models the recordings came from; record asks the live server. */
  async listModels(): Promise<ModelInfo[]> {
    if (this.options.mode === "record") return requireLive(this.options).listModels();
    const models = new Map<string, ModelInfo>();
    for (const entry of this.load().values()) {
      models.set(entry.model.name, { name: entry.model.name, digest: entry.model.digest ?? "" });
    }
    return [...models.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  private async answer(
    request: KeyedRequest,
    call: () => Promise<{ response: RecordingEntry["response"]; reportedModel: string }>,
  ): Promise<RecordingEntry> {
    const key = recordingKey(request);
    const entries = this.load();
    if (this.options.mode === "replay") {
      const entry = entries.get(key);
      if (!entry) throw replayMiss(this.options.file, summary(request, key));
      return entry;
    }
    const { response, reportedModel } = await call();
    const digest = findModel(await this.modelDigests(), reportedModel)?.digest ?? null;
    const entry: RecordingEntry = {
      request,
      response,
      model: { name: reportedModel, digest },
      recordedAt: this.options.timestamp!(),
    };
    entries.set(key, entry);
    // Written after every call, so an interrupted recording keeps what it already has.
    writeRecordings(this.options.file, entries);
    return entry;
  }

  private load(): Map<string, RecordingEntry> {
    this.entries ??= readRecordings(this.options.file, { mustExist: this.options.mode === "replay" });
    return this.entries;
  }

  private modelDigests(): Promise<ModelInfo[]> {
    this.digests ??= requireLive(this.options).listModels();
    return this.digests;
  }

  private kindMismatch(request: KeyedRequest): Error {
    return new Error(`recording for ${request.kind} call to ${request.model} holds the wrong kind of response`);
  }
}

function summary(request: KeyedRequest, key: string) {
  const lastText = request.kind === "chat" ? (request.messages.at(-1)?.content ?? "") : (request.input.at(-1) ?? "");
  return { kind: request.kind, model: request.model, lastText, key };
}

function requireLive(options: RecorderOptions): ModelClient {
  if (!options.live) throw new TypeError(`${options.mode} mode needs a live model client`);
  return options.live;
}
