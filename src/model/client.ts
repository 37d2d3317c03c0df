/**
 * The one live model client: chat, embed and the model list over the `ollama` package, with the
 * host, timeout, retries and errors this project needs. Chat streams and is assembled here, so a
 * reply cut off midway (no final `done`) is detected rather than returned half-finished.
 */
import { Ollama } from "ollama";
import { z } from "zod";
import { classifyFailure } from "./classify.js";
import { callTarget, malformed, replyTooLarge } from "./errors.js";
import { normaliseClientOptions, type ClientOptions, type NormalisedClientOptions } from "./options.js";
import { attemptFetch } from "./transport.js";
import type { ChatReply, ChatRequest, EmbedReply, EmbedRequest, ModelClient, ModelInfo } from "./types.js";

const chatChunkSchema = z.object({
  model: z.string().optional(),
  message: z.object({ content: z.string() }).optional(),
  done: z.boolean().optional(),
});
const embedSchema = z.object({ model: z.string().optional(), embeddings: z.array(z.array(z.number())) });
const tagsSchema = z.object({ models: z.array(z.object({ name: z.string(), digest: z.string() })) });

export class OllamaClient implements ModelClient {
  readonly host: string;
  private readonly settings: NormalisedClientOptions;

  constructor(options: ClientOptions = {}) {
    this.settings = normaliseClientOptions(options);
    this.host = this.settings.host;
  }

  chat(request: ChatRequest): Promise<ChatReply> {
    return this.call(request.model, async (ollama) => {
      const stream = await ollama.chat({
        model: request.model,
        messages: request.messages.map(({ role, content }) => ({ role, content })),
        ...(request.options ? { options: request.options } : {}),
        ...(request.think === undefined ? {} : { think: request.think }),
        stream: true,
      });
      let content = "";
      let bytes = 0;
      let model = request.model;
      // The package throws when the stream ends without `done`; the classifier names that a cut.
      for await (const raw of stream) {
        const chunk = this.parse(chatChunkSchema, raw, request.model, "a streamed chat message");
        if (!chunk.done && !chunk.message) throw malformed(this.host, callTarget(request.model), "a streamed chat message has no content");
        const piece = chunk.message?.content ?? "";
        bytes += Buffer.byteLength(piece);
        if (bytes > this.settings.maxReplyBytes) {
          stream.abort();
          throw replyTooLarge(this.host, callTarget(request.model), this.settings.maxReplyBytes);
        }
        content += piece;
        model = chunk.model ?? model;
      }
      return { content, model };
    });
  }

  embed(request: EmbedRequest): Promise<EmbedReply> {
    return this.call(request.model, async (ollama) => {
      const raw = await ollama.embed({
        model: request.model,
        input: request.input,
        ...(request.options ? { options: request.options } : {}),
      });
      const reply = this.parse(embedSchema, raw, request.model, "the embed reply");
      if (reply.embeddings.length !== request.input.length) {
        const what = `${reply.embeddings.length} embeddings for ${request.input.length} inputs`;
        throw malformed(this.host, callTarget(request.model), what);
      }
      return { embeddings: reply.embeddings, model: reply.model ?? request.model };
    });
  }

  listModels(): Promise<ModelInfo[]> {
    return this.call(null, async (ollama) => {
      const reply = this.parse(tagsSchema, await ollama.list(), null, "the model list");
      return reply.models.map(({ name, digest }) => ({ name, digest }));
    });
  }

  /** One call with its own timeout per attempt, retried with doubling backoff when worth it. */
  private async call<T>(model: string | null, run: (ollama: Ollama) => Promise<T>): Promise<T> {
    const { timeoutMs, retries, connectRetries, backoffMs, sleep, maxReplyBytes } = this.settings;
    const used = { connect: 0, transient: 0 };
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      let fired = false;
      const timer = setTimeout(() => {
        fired = true;
        controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      try {
        return await run(new Ollama({ host: this.host, fetch: attemptFetch(controller.signal, maxReplyBytes) }));
      } catch (error) {
        const target = callTarget(model);
        const failure = classifyFailure(error, { host: this.host, model, target, timeoutMs, timedOut: fired, maxReplyBytes });
        const budget = failure.retry === "connect" ? connectRetries : failure.retry === "transient" ? retries : 0;
        if (failure.retry === "never" || used[failure.retry] >= budget) throw failure.error;
        used[failure.retry]++;
        await sleep(backoffMs * 2 ** attempt);
      } finally {
        clearTimeout(timer);
        // Releases a connection left open by a failed attempt (an unread or hanging body).
        controller.abort();
      }
    }
  }

  private parse<T>(schema: z.ZodType<T>, raw: unknown, model: string | null, what: string): T {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw malformed(this.host, callTarget(model), `${what} has an unexpected shape${where}: ${issue?.message ?? "invalid"}`);
  }
}
