/**
 * TEST DOUBLE — not an OpenAI server. A small node:http server on 127.0.0.1 (ephemeral port) that
 * speaks the slice of the OpenAI API the embedding client uses — POST /v1/embeddings with
 * {model, input, encoding_format}, answered with {object: "list", data: [{object: "embedding",
 * index, embedding}], model, usage} — so the client's success and failure paths can be tested
 * without a model. Each request takes the next scripted behaviour; when none is queued it answers
 * successfully. Vectors are deterministic functions of the text.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type OpenAiBehaviour =
  /** A normal answer; `reverse` lists the embeddings in reverse input order (each with its index, as the API allows). */
  | { type: "reply"; reverse?: boolean }
  /** An HTTP error status with an OpenAI-style {"error": {message, type, code}} body. */
  | { type: "status"; status: number; message?: string; code?: string }
  /** Accepts the request and never answers (for timeouts). */
  | { type: "hang" }
  /** Sends the headers and part of the body, then goes quiet with the connection open. */
  | { type: "stall" }
  /** A 200 whose body is not JSON. */
  | { type: "not-json" }
  /** A 200 with JSON of another shape (no `data`). */
  | { type: "wrong-shape" }
  /** A 200 with one embedding fewer than there are inputs. */
  | { type: "one-short" }
  /** A 200 that lists index 0 twice. */
  | { type: "repeated-index" }
  /** A 200 whose last embedding is one number short of the others. */
  | { type: "ragged" }
  /** A 200 whose first embedding is an empty list. */
  | { type: "empty-vector" };

export interface RecordedOpenAiRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface OpenAiDouble {
  /** The API's base URL, http://127.0.0.1:<port>/v1, as clients are configured with it. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedOpenAiRequest[];
  /** Queues behaviours for the next requests. */
  script(...behaviours: OpenAiBehaviour[]): void;
  stop(): Promise<void>;
}

export interface OpenAiDoubleOptions {
  /** The models the server serves; a request for another gets 404 model_not_found, as OpenAI answers. */
  models?: string[];
  /** Dimension of the vectors (8 unless told). */
  dim?: number;
}

export const OPENAI_DOUBLE_MODELS = ["text-embedding-3-small"];

/** The double's vector of `text`: deterministic, `dim` numbers in [-1, 1). */
export function openAiDoubleEmbedding(text: string, dim = 8): number[] {
  const digest = createHash("sha256").update(text).digest();
  return Array.from({ length: dim }, (_, i) => (digest[i % digest.length]! - 128) / 128);
}

export async function startOpenAiDouble(options: OpenAiDoubleOptions = {}): Promise<OpenAiDouble> {
  const models = options.models ?? OPENAI_DOUBLE_MODELS;
  const dim = options.dim ?? 8;
  const queue: OpenAiBehaviour[] = [];
  const requests: RecordedOpenAiRequest[] = [];

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      return sendJson(res, 404, { error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: "invalid_request_error", code: "unknown_url" } });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: { message: "We could not parse the JSON body of your request.", type: "invalid_request_error", code: null } });
    }
    requests.push({ method: req.method, url: req.url, headers: req.headers, body });
    const behaviour = queue.shift() ?? { type: "reply" };
    const model = String(body.model ?? "");
    if (behaviour.type === "reply" && !models.includes(model)) {
      return sendJson(res, 404, {
        error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: "invalid_request_error", code: "model_not_found" },
      });
    }
    const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
    respond(behaviour, model, input, dim, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    script: (...behaviours) => queue.push(...behaviours),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function respond(behaviour: OpenAiBehaviour, model: string, input: string[], dim: number, res: ServerResponse): void {
  const data = input.map((text, index) => ({ object: "embedding", index, embedding: openAiDoubleEmbedding(text, dim) }));
  const reply = (items: unknown[]) =>
    sendJson(res, 200, { object: "list", data: items, model, usage: { prompt_tokens: input.length, total_tokens: input.length } });
  switch (behaviour.type) {
    case "reply":
      return reply(behaviour.reverse ? [...data].reverse() : data);
    case "status":
      return sendJson(res, behaviour.status, { error: { message: behaviour.message ?? "The server had an error while processing your request.", type: "server_error", code: behaviour.code ?? null } });
    case "hang":
      return;
    case "stall":
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"object": "list", "data": [');
      return;
    case "not-json":
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>502 Bad Gateway</html>");
      return;
    case "wrong-shape":
      return sendJson(res, 200, { object: "list", embeddings: data.map((d) => d.embedding) });
    case "one-short":
      return reply(data.slice(1));
    case "repeated-index":
      return reply(data.map((d) => ({ ...d, index: 0 })));
    case "ragged":
      return reply(data.map((d, i) => (i === data.length - 1 ? { ...d, embedding: d.embedding.slice(1) } : d)));
    case "empty-vector":
      return reply(data.map((d, i) => (i === 0 ? { ...d, embedding: [] } : d)));
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
