/**
 * Client options are normalised here and nowhere else. The `ollama` package neither reads
 * OLLAMA_HOST nor has a timeout, so the host precedence (config, then OLLAMA_HOST, then the
 * default) and the timeout and retry settings live in this one place.
 */
import { userError } from "../shared/errors.js";
import { invalidHost } from "./errors.js";

export const DEFAULT_HOST = "http://127.0.0.1:11434";
export const DEFAULT_CHAT_MODEL = "gemma4:e2b";
export const DEFAULT_EMBED_MODEL = "nomic-embed-text";

export interface ClientOptions {
  /** Wins over OLLAMA_HOST. Accepts the forms Ollama accepts: "host:port", ":port", URLs. */
  host?: string;
  /** Where OLLAMA_HOST is read from; the process environment by default. */
  env?: Record<string, string | undefined>;
  /** One attempt's budget, including a streamed body. A first call may load the model. */
  timeoutMs?: number;
  /** Retries after a 5xx, a reset connection or a stream cut off midway. */
  retries?: number;
  /** Retries after a refused connection; kept small so a stopped server fails fast. */
  connectRetries?: number;
  /** First backoff; it doubles on each retry. */
  backoffMs?: number;
  /** Injected so tests need not wait out real backoffs. */
  sleep?: (ms: number) => Promise<void>;
  /** The longest chat reply accepted, in UTF-8 bytes; a model stuck in a loop is stopped there. */
  maxReplyBytes?: number;
}

export interface NormalisedClientOptions {
  host: string;
  timeoutMs: number;
  retries: number;
  connectRetries: number;
  backoffMs: number;
  sleep: (ms: number) => Promise<void>;
  maxReplyBytes: number;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 120_000,
  retries: 2,
  connectRetries: 1,
  backoffMs: 250,
  maxReplyBytes: 1024 * 1024,
} as const;

export function normaliseClientOptions(options: ClientOptions = {}): NormalisedClientOptions {
  return {
    host: resolveHost(options.host, options.env ?? process.env),
    timeoutMs: positive(options.timeoutMs, CLIENT_DEFAULTS.timeoutMs, "timeoutMs"),
    retries: count(options.retries, CLIENT_DEFAULTS.retries, "retries"),
    connectRetries: count(options.connectRetries, CLIENT_DEFAULTS.connectRetries, "connectRetries"),
    backoffMs: count(options.backoffMs, CLIENT_DEFAULTS.backoffMs, "backoffMs"),
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    maxReplyBytes: positiveInteger(options.maxReplyBytes, CLIENT_DEFAULTS.maxReplyBytes, "maxReplyBytes"),
  };
}

/** Config host wins, then OLLAMA_HOST, then the default; empty values count as unset. */
export function resolveHost(configHost: string | undefined, env: Record<string, string | undefined>): string {
  if (configHost?.trim()) return formatHost(configHost, "the configured host");
  const fromEnv = env.OLLAMA_HOST;
  if (fromEnv?.trim()) return formatHost(fromEnv, "OLLAMA_HOST");
  return DEFAULT_HOST;
}

/**
 * Mirrors how Ollama reads OLLAMA_HOST: no scheme means http, no port means 11434 (with an
 * explicit scheme, the scheme's port), ":port" means 127.0.0.1. Trailing slashes are dropped.
 */
export function formatHost(value: string, origin: string): string {
  let text = value.trim();
  let explicitScheme = text.includes("://");
  if (text.startsWith(":")) {
    text = `http://127.0.0.1${text}`;
    explicitScheme = true;
  }
  if (!explicitScheme) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw invalidHost(value, origin, { cause: error });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidHost(value, origin);
  const port = url.port || (explicitScheme ? (url.protocol === "https:" ? "443" : "80") : "11434");
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.hostname}:${port}${path}`;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw userError(`the model client's ${name} must be a positive number, got ${value}`);
  return value;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw userError(`the model client's ${name} must be a whole number ≥ 1, got ${value}`);
  return value;
}

function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw userError(`the model client's ${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}
