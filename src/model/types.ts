/**
 * The model layer's contract. Everything that needs a language model (importance, reflection,
 * the chat loop, the harness) takes a `ModelClient`, so the live Ollama client and the
 * record/replay client are interchangeable.
 */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Sampling options sent to Ollama; all of them, the seed included, are part of a recording key. */
export interface SamplingOptions {
  seed?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  num_predict?: number;
  num_ctx?: number;
  stop?: string[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  options?: SamplingOptions;
  /** Thinking models (such as Gemma 4) may be asked not to think, so replies stay short. */
  think?: boolean;
}

export interface ChatReply {
  content: string;
  /** The model name the server reported. */
  model: string;
}

export interface EmbedRequest {
  model: string;
  input: string[];
  options?: SamplingOptions;
}

export interface EmbedReply {
  embeddings: number[][];
  model: string;
}

export interface ModelInfo {
  name: string;
  digest: string;
}

export interface ModelClient {
  /** Where calls go: a server URL, or the recording file that answers them. */
  readonly host: string;
  chat(request: ChatRequest): Promise<ChatReply>;
  embed(request: EmbedRequest): Promise<EmbedReply>;
  /** The models the server has (GET /api/tags). */
  listModels(): Promise<ModelInfo[]>;
}
