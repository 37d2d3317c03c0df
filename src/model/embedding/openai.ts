/**
 * Embeddings from any server that speaks the OpenAI embeddings API (POST {url}/embeddings):
 * llama.cpp's server, vLLM, LM Studio, hosted APIs. One attempt has a timeout (headers and body); a refused
 * connection, a rate limit (429) or a 5xx is retried with doubling backoff; every failure is one ModelError naming the
 * URL and the model.
 */
import { z } from "zod";
import { openAiErrors } from "../errors.js";
import type { Embedder } from "../embedder.js";

export interface OpenAiOptions {
  /** The API's base URL, such as http://127.0.0.1:8080/v1 (the request goes to {url}/embeddings). */
  url: string;
  /** The model as the server names it. */
  model: string;
  /** Sent as a bearer token when given (hosted APIs need one; local servers usually do not). */
  apiKey?: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const replySchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().min(0) })),
});

/** An embedder over an OpenAI-compatible endpoint; its vectors are recorded as `openai:<model>`. */
export function openAiEmbedder(options: OpenAiOptions): Embedder {
  const url = options.url.replace(/\/+$/, "");
  const { model } = options;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 250;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));

  const attempt = async (input: readonly string[]): Promise<Float32Array[]> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let text: string;
    // The timeout covers the whole attempt, the body included: a server may send its headers and stall.
    try {
      try {
        response = await fetch(`${url}/embeddings`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({ model, input, encoding_format: "float" }),
          signal: controller.signal,
        });
      } catch (error) {
        throw controller.signal.aborted ? openAiErrors.timedOut(url, model, timeoutMs, { cause: error }) : Object.assign(openAiErrors.down(url, { cause: error }), { retryable: true });
      }
      text = await response.text().catch(() => "");
      if (controller.signal.aborted) throw openAiErrors.timedOut(url, model, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    if (response.status === 401 || response.status === 403) throw openAiErrors.refused(url, response.status);
    if (response.status === 404 || (response.status >= 400 && /model.*(not found|does not exist)/i.test(text))) throw openAiErrors.modelMissing(url, model);
    if (!response.ok) throw Object.assign(openAiErrors.failed(url, model, response.status, excerpt(text)), { retryable: response.status >= 500 || response.status === 429 });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw openAiErrors.malformed(url, model, "the body is not JSON", { cause: error });
    }
    const reply = replySchema.safeParse(raw);
    if (!reply.success) throw openAiErrors.malformed(url, model, `unexpected shape at ${reply.error.issues[0]?.path.join(".") || "the top"}`);
    if (reply.data.data.length !== input.length) throw openAiErrors.malformed(url, model, `${reply.data.data.length} embeddings for ${input.length} inputs`);
    // The API lists each embedding with the index of its input; the order of the list is not promised.
    const vectors: Float32Array[] = new Array(input.length);
    for (const item of reply.data.data) {
      if (item.index >= input.length || vectors[item.index] !== undefined) throw openAiErrors.malformed(url, model, `input index ${item.index} is out of range or repeated`);
      vectors[item.index] = Float32Array.from(item.embedding);
    }
    // One model gives one dimension: a reply that mixes them (or sends an empty vector) is no embedding reply.
    const dims = new Set(vectors.map((v) => v.length));
    if (dims.has(0) || dims.size > 1) throw openAiErrors.malformed(url, model, `embeddings of ${[...dims].sort((a, b) => a - b).join(" and ")} dimensions in one reply`);
    return vectors;
  };

  return {
    model: `openai:${model}`,
    async embed(texts) {
      if (texts.length === 0) return [];
      for (let tried = 0; ; tried++) {
        try {
          return await attempt(texts);
        } catch (error) {
          if (!(error as { retryable?: boolean }).retryable || tried >= retries) throw error;
          await sleep(backoffMs * 2 ** tried);
        }
      }
    },
  };
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat === "" ? "(no body)" : flat;
}
