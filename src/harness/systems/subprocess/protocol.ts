/**
 * The subprocess protocol, version 1: JSON-RPC 2.0 messages, one per line of UTF-8 JSON, between
 * the harness (on the system's standard input) and the system (on its standard output). Every
 * message the two exchange is declared here; the JSON Schemas in schemas/system-protocol/ are
 * generated from these declarations, and the harness validates every reply against them.
 *
 * The harness sends one request and waits for its reply before the next. Ids count up from 1.
 */
import { z } from "zod";
import { KINDS } from "../../../memory/index.js";

export const PROTOCOL = "recollect-system/1";

const id = z.number().int().min(1);
const scope = z.string().min(1);

export const memorySchema = z
  .object({
    id: z.string().min(1),
    kind: z.enum(KINDS),
    text: z.string(),
    createdAt: z.number().int(),
    occurredAt: z.number().int().nullable(),
    lastAccessedAt: z.number().int().optional(),
    importance: z.number().min(1).max(10).optional(),
    supersedes: z.string().nullable(),
    expiresAt: z.number().int().nullable(),
    source: z.string().nullable(),
    tokens: z.number().int().min(0),
  })
  .strict();

/** Each method's params, as the harness sends them. */
export const PARAMS = {
  initialize: z.object({ protocol: z.literal(PROTOCOL), name: z.string(), options: z.record(z.string(), z.unknown()) }).strict(),
  open: z.object({ scope }).strict(),
  write: z.object({ scope, memories: z.array(memorySchema) }).strict(),
  retrieve: z.object({ scope, query: z.string(), now: z.number().int(), budget: z.number().int().min(0).nullable() }).strict(),
  close: z.object({ scope }).strict(),
  shutdown: z.object({}).strict(),
} as const;
export type Method = keyof typeof PARAMS;
export const METHODS = Object.keys(PARAMS) as Method[];

const empty = z.union([z.null(), z.object({}).strict()]);

/** Each method's result, as the system must reply. */
export const RESULTS = {
  initialize: z.object({ protocol: z.literal(PROTOCOL), name: z.string().optional() }).strict(),
  open: empty,
  write: empty,
  retrieve: z.object({ ids: z.array(z.string()), block: z.string().optional() }).strict(),
  close: empty,
  shutdown: empty,
} as const satisfies Record<Method, z.ZodType>;

export function requestSchema<M extends Method>(method: M) {
  return z.object({ jsonrpc: z.literal("2.0"), id, method: z.literal(method), params: PARAMS[method] }).strict();
}

export function resultSchema<M extends Method>(method: M) {
  return z.object({ jsonrpc: z.literal("2.0"), id, result: RESULTS[method] }).strict();
}

/** A system that cannot do what was asked replies with an error instead of a result. */
export const errorSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id,
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).strict(),
  })
  .strict();

/** Any reply: its id, and a result or an error, before the result is checked against its method. */
export const replySchema = z.union([
  z.object({ jsonrpc: z.literal("2.0"), id, result: z.unknown() }).strict(),
  errorSchema,
]);

/** The JSON Schemas of every message, for schemas/system-protocol/ (see the README's tutorial). */
export function protocolJsonSchemas(): Record<string, object> {
  const render = (schema: z.ZodType, title: string) => ({ title, ...z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) });
  const schemas: Record<string, object> = {};
  for (const method of METHODS) {
    schemas[`${method}.request.schema.json`] = render(requestSchema(method), `${PROTOCOL}: the harness's ${method} request`);
    schemas[`${method}.result.schema.json`] = render(resultSchema(method), `${PROTOCOL}: the system's reply to ${method}`);
  }
  schemas["error.schema.json"] = render(errorSchema, `${PROTOCOL}: the system's error reply to any request`);
  return schemas;
}
