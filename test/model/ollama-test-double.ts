/**
 * TEST DOUBLE — not an Ollama server. A small node:http server on 127.0.0.1 (ephemeral port) that
 * speaks the slice of Ollama's API the model layer uses — POST /api/chat (streamed NDJSON or one
 * JSON body), POST /api/embed, GET /api/tags — so the client's success and failure paths can be
 * tested without a model. Each route answers with scripted behaviours, queued per route; when
 * the queue is empty it answers successfully. Answers are deterministic functions of the request.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Behaviour =
  /** A normal answer; chat replies are split into `chunks` streamed pieces. */
  | { type: "reply"; content?: string; chunks?: number }
  /** 404 {"error":"model 'x' not found"}, as Ollama answers for a model that is not pulled. */
  | { type: "missing-model" }
  /** Accepts the request and never answers (for timeouts). */
  | { type: "hang" }
  /** A body (or, streamed, a line) that is not JSON. */
  | { type: "malformed" }
  /** Streams `afterChunks` pieces, then destroys the socket, or ends the body without `done`. */
  | { type: "cut"; afterChunks?: number; how?: "destroy" | "end" }
  /** Streams `afterChunks` pieces, then goes quiet with the connection open (a stalled model). */
  | { type: "stall"; afterChunks?: number }
  /** An HTTP error status with an Ollama-style {"error": ...} body. */
  | { type: "status"; status: number; error?: string }
  /** Destroys the connection before any response. */
  | { type: "reset" };

export type Route = "chat" | "embed" | "tags";

export interface RecordedRequest {
  route: Route;
  body: Record<string, unknown>;
}

export interface DoubleModel {
  name: string;
  digest: string;
}

export interface OllamaDoubleOptions {
  models?: DoubleModel[];
  /** The answer to a chat request; by default it names the last message and the seed. */
  answer?: (body: ChatBody) => string;
}

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  options?: { seed?: number };
  stream?: boolean;
}

export interface OllamaDouble {
  /** http://127.0.0.1:<port> */
  host: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues behaviours for a route's next requests. */
  script(route: Route, ...behaviours: Behaviour[]): void;
  stop(): Promise<void>;
}

export const DOUBLE_MODELS: DoubleModel[] = [
  { name: "gemma4:e2b", digest: "sha256:double-gemma4-e2b" },
  { name: "nomic-embed-text:latest", digest: "sha256:double-nomic-embed-text" },
];

export function defaultAnswer(body: ChatBody): string {
  const last = body.messages.at(-1)?.content ?? "";
  return `You asked: ${last.slice(0, 40)} (seed ${body.options?.seed ?? "none"})`;
}

/** A unit-free, deterministic 8-dimensional vector derived from the text. */
export function doubleEmbedding(text: string): number[] {
  const digest = createHash("sha256").update(text).digest();
  return Array.from({ length: 8 }, (_, i) => (digest[i]! - 128) / 128);
}

export async function startOllamaDouble(options: OllamaDoubleOptions = {}): Promise<OllamaDouble> {
  const models = options.models ?? DOUBLE_MODELS;
  const answer = options.answer ?? defaultAnswer;
  const queues: Record<Route, Behaviour[]> = { chat: [], embed: [], tags: [] };
  const requests: RecordedRequest[] = [];

  const server = createServer(async (req, res) => {
    const route = routeOf(req);
    if (!route) return sendJson(res, 404, { error: "404 page not found" });
    const body = route === "tags" ? {} : await readJson(req);
    requests.push({ route, body });
    const behaviour = queues[route].shift() ?? { type: "reply" };
    const model = String(body.model ?? "");
    if (route !== "tags" && !models.some((m) => m.name === model || m.name === `${model}:latest`)) {
      return missingModel(res, model);
    }
    respond(route, behaviour, body, res, models, answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    host: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (route, ...behaviours) => queues[route].push(...behaviours),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens: bound once, noted, and closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function respond(
  route: Route,
  behaviour: Behaviour,
  body: Record<string, unknown>,
  res: ServerResponse,
  models: DoubleModel[],
  answer: (body: ChatBody) => string,
): void {
  switch (behaviour.type) {
    case "hang":
      return;
    case "reset":
      res.socket?.destroy();
      return;
    case "missing-model":
      return missingModel(res, String(body.model ?? ""));
    case "status":
      return sendJson(res, behaviour.status, { error: behaviour.error ?? "internal error" });
    case "malformed":
      if (route === "chat" && body.stream === true) return streamChat(res, body, ["ok"], { garble: true });
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end("this is not json");
      return;
    case "cut":
    case "stall": {
      const pieces = ["one ", "two ", "three ", "four "];
      const how = behaviour.type === "stall" ? "stall" : (behaviour.how ?? "destroy");
      return streamChat(res, body, pieces, { cutAfter: behaviour.afterChunks ?? 2, how });
    }
    case "reply":
      if (route === "tags") return sendJson(res, 200, { models: models.map(tagEntry) });
      if (route === "embed") return sendJson(res, 200, embedReply(body));
      {
        const content = behaviour.content ?? answer(body as unknown as ChatBody);
        if (body.stream !== true) return sendJson(res, 200, chatMessage(body, content, true));
        return streamChat(res, body, split(content, behaviour.chunks ?? 3));
      }
  }
}

function streamChat(
  res: ServerResponse,
  body: Record<string, unknown>,
  pieces: string[],
  fault: { garble?: boolean; cutAfter?: number; how?: "destroy" | "end" | "stall" } = {},
): void {
  res.writeHead(200, { "content-type": "application/x-ndjson" });
  pieces.forEach((piece, i) => {
    if (fault.cutAfter !== undefined && i >= fault.cutAfter) return;
    res.write(`${JSON.stringify(chatMessage(body, piece, false))}\n`);
  });
  if (fault.garble) {
    res.end("{\"model\": this is not json}\n");
    return;
  }
  if (fault.cutAfter !== undefined) {
    // Flush what was written, then drop the connection (or end cleanly without `done`).
    if (fault.how === "end") res.end();
    else if (fault.how === "destroy") setImmediate(() => res.socket?.destroy());
    return;
  }
  res.end(`${JSON.stringify(chatMessage(body, "", true))}\n`);
}

function chatMessage(body: Record<string, unknown>, content: string, done: boolean): Record<string, unknown> {
  return {
    model: body.model,
    created_at: "2025-01-01T00:00:00Z",
    message: { role: "assistant", content },
    done,
    ...(done ? { done_reason: "stop", total_duration: 1, eval_count: 1 } : {}),
  };
}

function embedReply(body: Record<string, unknown>): Record<string, unknown> {
  const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
  return { model: body.model, embeddings: input.map(doubleEmbedding), total_duration: 1 };
}

function tagEntry(model: DoubleModel): Record<string, unknown> {
  return { name: model.name, model: model.name, modified_at: "2025-01-01T00:00:00Z", size: 1, digest: model.digest, details: {} };
}

function missingModel(res: ServerResponse, model: string): void {
  sendJson(res, 404, { error: `model '${model}' not found` });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(value));
}

function routeOf(req: IncomingMessage): Route | undefined {
  if (req.method === "POST" && req.url === "/api/chat") return "chat";
  if (req.method === "POST" && req.url === "/api/embed") return "embed";
  if (req.method === "GET" && req.url === "/api/tags") return "tags";
  return undefined;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

function split(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [""];
}
