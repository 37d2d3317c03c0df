/**
 * TEST FAKE — an in-process ModelClient that answers chat calls from a queue of replies (or a
 * function of the request) and embeds with the test double's deterministic vectors. It records
 * every request, so tests can read the prompts that were sent.
 */
import type { ChatRequest, EmbedRequest, ModelClient, ModelInfo } from "../../src/model/types.js";
import { doubleEmbedding } from "./ollama-test-double.js";

export interface ScriptedClient extends ModelClient {
  chats: ChatRequest[];
  embeds: EmbedRequest[];
}

export function scriptedClient(replies: string[] | ((request: ChatRequest) => string)): ScriptedClient {
  const queue = Array.isArray(replies) ? [...replies] : undefined;
  const chats: ChatRequest[] = [];
  const embeds: EmbedRequest[] = [];
  return {
    host: "scripted",
    chats,
    embeds,
    async chat(request) {
      chats.push(request);
      const content = queue ? queue.shift() : (replies as (r: ChatRequest) => string)(request);
      if (content === undefined) throw new Error(`scripted client has no reply left for chat call ${chats.length}`);
      return { content, model: request.model };
    },
    async embed(request) {
      embeds.push(request);
      return { embeddings: request.input.map(doubleEmbedding), model: request.model };
    },
    async listModels(): Promise<ModelInfo[]> {
      return [];
    },
  };
}
