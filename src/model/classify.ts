/**
 * Turns what fetch, undici and the `ollama` package throw into the model layer's errors, and
 * says whether the failure is worth another attempt. A model error keeps what was thrown as its
 * cause. Unknown errors are returned as they are: they are bugs and keep their stack trace.
 */
import {
  isModelError,
  malformed,
  modelMissing,
  replyTooLarge,
  serverDown,
  serverFailed,
  streamCut,
  timedOut,
  type ModelError,
} from "./errors.js";
import { LineTooLongError, MalformedLineError, TruncatedStreamError } from "./transport.js";

/** `connect`: the server could not be reached. `transient`: it failed in a way a retry may fix. */
export type RetryClass = "connect" | "transient" | "never";

export interface Failure {
  error: ModelError | unknown;
  retry: RetryClass;
}

export interface CallContext {
  host: string;
  /** The model called; null for the model list. */
  model: string | null;
  target: string;
  timeoutMs: number;
  /** Whether this attempt's own timer fired (as opposed to the caller aborting). */
  timedOut: boolean;
  /** The reply cap, for the message when a reply passes it. */
  maxReplyBytes: number;
}

const REFUSED = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAI_AGAIN"]);
const RESET = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
const NO_DONE = "Did not receive done or success response in stream.";

export function classifyFailure(error: unknown, ctx: CallContext): Failure {
  const { host, target } = ctx;
  const cause = { cause: error };
  if (ctx.timedOut) return { error: timedOut(host, target, ctx.timeoutMs, cause), retry: "never" };
  if (isModelError(error)) return { error, retry: error.reason === "stream-cut" ? "transient" : "never" };
  if (error instanceof LineTooLongError) return { error: replyTooLarge(host, target, ctx.maxReplyBytes, cause), retry: "never" };
  if (error instanceof MalformedLineError) return { error: malformed(host, target, error.message, cause), retry: "never" };
  if (error instanceof TruncatedStreamError) return { error: streamCut(host, target, error.message, cause), retry: "transient" };
  if (error instanceof SyntaxError) {
    return { error: malformed(host, target, `the body is not valid JSON: ${error.message}`, cause), retry: "never" };
  }
  const status = responseStatus(error);
  if (status !== null) return classifyStatus(status, error as Error, ctx);

  const codes = errorCodes(error);
  if ([...codes].some((code) => REFUSED.has(code))) return { error: serverDown(host, cause), retry: "connect" };
  // fetch will not connect to blocked ports (e.g. 9, the discard port), so no server is reachable there.
  if (causeMessages(error).includes("bad port")) return { error: serverDown(host, cause), retry: "never" };
  if ([...codes].some((code) => RESET.has(code)) || (error instanceof TypeError && error.message === "terminated")) {
    return { error: streamCut(host, target, "the connection was closed before the reply ended", cause), retry: "transient" };
  }
  if (error instanceof Error && error.message === NO_DONE) {
    return { error: streamCut(host, target, "the stream ended without a final `done` message", cause), retry: "transient" };
  }
  // The package rethrows a streamed {"error": "..."} line as a plain Error.
  if (error instanceof Error && error.constructor === Error && ctx.model !== null) {
    if (/not found/i.test(error.message)) return { error: modelMissing(host, ctx.model, cause), retry: "never" };
    return { error: serverFailed(host, target, null, error.message, cause), retry: "transient" };
  }
  return { error, retry: "never" };
}

function classifyStatus(status: number, response: Error, ctx: CallContext): Failure {
  const { message } = response;
  if (ctx.model !== null && (status === 404 || /model .*not found/i.test(message))) {
    return { error: modelMissing(ctx.host, ctx.model, { cause: response }), retry: "never" };
  }
  const error = serverFailed(ctx.host, ctx.target, status, message, { cause: response });
  return { error, retry: status >= 500 ? "transient" : "never" };
}

/** The HTTP status of the package's ResponseError (it is not exported, so matched by shape). */
function responseStatus(error: unknown): number | null {
  if (!(error instanceof Error) || error.name !== "ResponseError") return null;
  const status = (error as Error & { status_code?: unknown }).status_code;
  return typeof status === "number" ? status : null;
}

/** Error codes along the cause chain, including each error of an AggregateError (dual-stack connects). */
function errorCodes(error: unknown, seen = new Set<unknown>()): Set<string> {
  const codes = new Set<string>();
  if (!error || typeof error !== "object" || seen.has(error)) return codes;
  seen.add(error);
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") codes.add(code);
  for (const inner of [cause, ...(Array.isArray(errors) ? errors : [])]) {
    for (const c of errorCodes(inner, seen)) codes.add(c);
  }
  return codes;
}

function causeMessages(error: unknown): string[] {
  const messages: string[] = [];
  for (let e: unknown = error; e instanceof Error && messages.length < 8; e = e.cause) messages.push(e.message);
  return messages;
}
