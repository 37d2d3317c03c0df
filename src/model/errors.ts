/**
 * Every user-facing error of the model layer is built here, so the wording stays consistent and
 * each message names the host or file, the model, and what to do next. They are RecollectErrors
 * (a user can fix them), and a failure turned into one keeps what was thrown as its cause.
 */
import { formatBytes, RecollectError } from "../shared/errors.js";

export type ModelErrorReason =
  | "server-down"
  | "model-missing"
  | "timeout"
  | "malformed"
  | "stream-cut"
  | "too-large"
  | "server-error"
  | "bad-request"
  | "invalid-host"
  | "replay-miss"
  | "recordings";

/** What a model error is about: the server (its host or URL), or for recorded calls the recording file. */
export type ModelErrorContext = { host: string } | { file: string };

export class ModelError extends RecollectError {
  /** The server's host or URL (or the value given as one), when the error is about a server. */
  readonly host: string | undefined;
  /** The recording file, when the error is about recorded calls. */
  readonly file: string | undefined;

  constructor(
    message: string,
    readonly reason: ModelErrorReason,
    context: ModelErrorContext,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ModelError";
    this.host = "host" in context ? context.host : undefined;
    this.file = "file" in context ? context.file : undefined;
  }
}

export function isModelError(error: unknown, reason?: ModelErrorReason): error is ModelError {
  return error instanceof ModelError && (reason === undefined || error.reason === reason);
}

export function serverDown(host: string, options?: ErrorOptions): ModelError {
  return new ModelError(
    `no Ollama server at ${host}: start it with \`ollama serve\`, or use recorded calls`,
    "server-down",
    { host },
    options,
  );
}

export function modelMissing(host: string, model: string, options?: ErrorOptions): ModelError {
  return new ModelError(`model ${model} not found on ${host}: run \`ollama pull ${model}\``, "model-missing", { host }, options);
}

/**
 * What a failed call was for, as the messages name it: `model gemma4:e2b`, or `the model list`
 * for GET /api/tags.
 */
export function callTarget(model: string | null): string {
  return model === null ? "the model list" : `model ${model}`;
}

export function timedOut(host: string, target: string, timeoutMs: number, options?: ErrorOptions): ModelError {
  return new ModelError(
    `Ollama at ${host} did not finish the call to ${target} within ${formatMs(timeoutMs)}: ` +
      `check the server, or raise the timeout (a first call may be slow while the model loads)`,
    "timeout",
    { host },
    options,
  );
}

export function malformed(host: string, target: string, what: string, options?: ErrorOptions): ModelError {
  return new ModelError(
    `Ollama at ${host} sent a malformed response for ${target} (${what}): ` +
      `check that ${host} is an Ollama server, then retry`,
    "malformed",
    { host },
    options,
  );
}

export function streamCut(host: string, target: string, detail: string, options?: ErrorOptions): ModelError {
  return new ModelError(
    `the reply from Ollama at ${host} for ${target} was cut off midway (${detail}): ` +
      `check the server log, then retry`,
    "stream-cut",
    { host },
    options,
  );
}

export function replyTooLarge(host: string, target: string, maxBytes: number, options?: ErrorOptions): ModelError {
  return new ModelError(
    `the reply from Ollama at ${host} for ${target} passed the ${formatBytes(maxBytes)} cap and was stopped: ` +
      `the model may be looping; limit its output (num_predict), or raise the cap (--max-reply-bytes)`,
    "too-large",
    { host },
    options,
  );
}

export function serverFailed(host: string, target: string, status: number | null, message: string, options?: ErrorOptions): ModelError {
  const how = status === null ? "" : ` with HTTP ${status}`;
  return new ModelError(
    `Ollama at ${host} failed on ${target}${how}: ${message}`,
    status === null || status >= 500 ? "server-error" : "bad-request",
    { host },
    options,
  );
}

export function invalidHost(value: string, origin: string, options?: ErrorOptions): ModelError {
  return new ModelError(
    `${origin} is "${value}", which is not a host: use a form such as http://127.0.0.1:11434`,
    "invalid-host",
    { host: value },
    options,
  );
}

/** What a replay miss says about the request, so a reader can find the call that was not recorded. */
export interface RequestSummary {
  kind: "chat" | "embed";
  model: string;
  /** The last message (chat) or the last input (embed). */
  lastText: string;
  key: string;
}

export function replayMiss(file: string, request: RequestSummary): ModelError {
  const text = request.lastText.replace(/\s+/g, " ").trim();
  const excerpt = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return new ModelError(
    `${file}: no recorded ${request.kind} call for model ${request.model} ` +
      `with last ${request.kind === "chat" ? "message" : "input"} "${excerpt}" (key ${request.key}): ` +
      `record it against a running Ollama (record mode), or check that the request did not change`,
    "replay-miss",
    { file },
  );
}

export function recordingsMissing(file: string): ModelError {
  return new ModelError(
    `${file}: no such recording set: record it against a running Ollama (record mode)`,
    "recordings",
    { file },
  );
}

export function recordingsInvalid(file: string, problem: string, options?: ErrorOptions): ModelError {
  return new ModelError(`${file}: not a valid recording set: ${problem}`, "recordings", { file }, options);
}

/**
 * The in-process encoder could not start, even when tried again: it has no server nor file to name,
 * so the message names the encoder, and the ways round it.
 */
export function encoderFailed(model: string, problem: string, options?: ErrorOptions): RecollectError {
  return new RecollectError(
    `the in-process encoder ${model} could not start, twice: ${problem}: run again on a less busy machine, or embed with a server (an ollama: or openai: model)`,
    options,
  );
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The failures of an OpenAI-compatible endpoint (llama.cpp's server, vLLM, LM Studio, a hosted API), in its own words. */
export const openAiErrors = {
  down(url: string, options?: ErrorOptions): ModelError {
    return new ModelError(`no OpenAI-compatible server answers at ${url}: start it, or check the embedding url`, "server-down", { host: url }, options);
  },
  timedOut(url: string, model: string, timeoutMs: number, options?: ErrorOptions): ModelError {
    return new ModelError(`the server at ${url} did not answer the embedding call to ${model} within ${formatMs(timeoutMs)}: check the server, or raise the timeout`, "timeout", { host: url }, options);
  },
  refused(url: string, status: number): ModelError {
    return new ModelError(`the server at ${url} refused the request with HTTP ${status}: set OPENAI_API_KEY to a key it accepts`, "bad-request", { host: url });
  },
  modelMissing(url: string, model: string): ModelError {
    return new ModelError(`model ${model} not found at ${url}: name a model the server lists at ${url}/models`, "model-missing", { host: url });
  },
  failed(url: string, model: string, status: number, message: string): ModelError {
    return new ModelError(`the server at ${url} failed on the embedding call to ${model} with HTTP ${status}: ${message}`, status >= 500 ? "server-error" : "bad-request", { host: url });
  },
  malformed(url: string, model: string, what: string, options?: ErrorOptions): ModelError {
    return new ModelError(`the server at ${url} sent a malformed embedding reply for ${model} (${what}): check that it speaks the OpenAI embeddings API`, "malformed", { host: url }, options);
  },
};
