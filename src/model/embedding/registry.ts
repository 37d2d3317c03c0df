/**
 * Embedding models by id. An id names the provider and the model:
 *
 * - `use-lite`: Universal Sentence Encoder lite, in this process, offline (the default);
 * - `ollama:<model>`: an Ollama server's /api/embed (its host from `url`, else OLLAMA_HOST);
 * - `openai:<model>`: any OpenAI-compatible /v1/embeddings (its base URL from `url`, else
 *   OPENAI_BASE_URL; a key from OPENAI_API_KEY when set).
 *
 * The id is what the store and the cache record beside each vector, so vectors of two models are
 * never compared, and a model is embedded once per text across runs.
 */
import { userError } from "../../shared/errors.js";
import { OllamaClient } from "../client.js";
import { type Embedder, modelEmbedder } from "../embedder.js";
import type { ModelClient } from "../types.js";
import { openAiEmbedder } from "./openai.js";
import { loadUseLite, USE_LITE_MODEL } from "./use-lite.js";

export const DEFAULT_EMBEDDING_MODEL = USE_LITE_MODEL;

/** The models that run in this process, by id. */
export const IN_PROCESS_MODELS: Readonly<Record<string, () => Promise<Embedder>>> = {
  [USE_LITE_MODEL]: loadUseLite,
};

export type ModelId = { provider: "in-process"; id: string } | { provider: "ollama" | "openai"; id: string; name: string };

/** The provider and model an id names, or a RecollectError saying which ids there are. */
export function parseModelId(id: string): ModelId {
  if (id in IN_PROCESS_MODELS) return { provider: "in-process", id };
  const match = /^(ollama|openai):(.+)$/.exec(id);
  if (match !== null) return { provider: match[1] as "ollama" | "openai", id, name: match[2]! };
  throw userError(
    `unknown embedding model "${id}": use ${Object.keys(IN_PROCESS_MODELS).join(", ")} (in this process, offline), ollama:<model> (an Ollama server) or openai:<model> (an OpenAI-compatible server)`,
  );
}

export interface EmbedderSettings {
  model: string;
  /** The server: Ollama's host, or an OpenAI-compatible base URL. */
  url?: string;
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
  /** An Ollama client to use instead of a new one (a recording or replaying one, say). */
  client?: ModelClient;
}

/** The embedder an id names, loaded (an in-process model) or connected to (a server's). */
export async function createEmbedder(settings: EmbedderSettings): Promise<Embedder> {
  const parsed = parseModelId(settings.model);
  const env = settings.env ?? process.env;
  if (parsed.provider === "in-process") return IN_PROCESS_MODELS[parsed.id]!();
  if (parsed.provider === "ollama") {
    const client = settings.client ?? new OllamaClient({ ...(settings.url === undefined ? {} : { host: settings.url }), env, ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }) });
    return modelEmbedder(client, parsed.name);
  }
  const url = settings.url ?? env.OPENAI_BASE_URL;
  if (url === undefined || url === "") {
    throw userError(`embedding model "${settings.model}" needs a server: give its base URL (embedding.url in the experiment, --embed-url in the chat) or set OPENAI_BASE_URL`);
  }
  const apiKey = env.OPENAI_API_KEY;
  return openAiEmbedder({ url, model: parsed.name, ...(apiKey ? { apiKey } : {}), ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }) });
}
