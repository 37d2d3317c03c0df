import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  errorSchema,
  memorySchema,
  METHODS,
  PARAMS,
  PROTOCOL,
  protocolJsonSchemas,
  replySchema,
  requestSchema,
  RESULTS,
  resultSchema,
} from "../../../../src/harness/systems/subprocess/protocol.js";
import { repoPath } from "../../../harness/temp-files.js";

const MEMORY = {
  id: "m1",
  kind: "episodic",
  text: "We went to the lake.",
  createdAt: 1_704_067_200_000,
  occurredAt: 1_704_060_000_000,
  supersedes: null,
  expiresAt: null,
  source: "D1:3",
  tokens: 7,
};

const request = (id: number, method: string, params: unknown) => ({ jsonrpc: "2.0", id, method, params });
const result = (id: number, value: unknown) => ({ jsonrpc: "2.0", id, result: value });

describe("the subprocess protocol", () => {
  it("is version 1, with the six methods in the order a system meets them", () => {
    expect(PROTOCOL).toBe("recollect-system/1");
    expect(METHODS).toEqual(["initialize", "open", "write", "retrieve", "close", "shutdown"]);
    expect(Object.keys(RESULTS)).toEqual(METHODS);
  });

  it("accepts the requests the harness sends", () => {
    const valid = {
      initialize: { protocol: PROTOCOL, name: "python-bm25", options: { k1: 1.2 } },
      open: { scope: "user" },
      write: { scope: "user", memories: [MEMORY, { ...MEMORY, id: "m2", kind: "semantic", occurredAt: null, importance: 7, lastAccessedAt: 1_704_067_300_000 }] },
      retrieve: { scope: "user", query: "Where did we go?", now: 1_704_070_000_000, budget: 168 },
      close: { scope: "user" },
      shutdown: {},
    };
    for (const method of METHODS) {
      expect(requestSchema(method).safeParse(request(1, method, valid[method])).success, method).toBe(true);
    }
    expect(PARAMS.retrieve.safeParse({ ...valid.retrieve, budget: null }).success).toBe(true);
  });

  it("refuses requests that break the declarations", () => {
    const bad: [string, unknown][] = [
      ["initialize", request(1, "initialize", { protocol: "recollect-system/0", name: "x", options: {} })],
      ["open", request(0, "open", { scope: "user" })],
      ["open", request(1, "open", { scope: "" })],
      ["open", request(1, "close", { scope: "user" })],
      ["open", { ...request(1, "open", { scope: "user" }), jsonrpc: "1.0" }],
      ["retrieve", request(1, "retrieve", { scope: "user", query: "q", now: 1.5, budget: null })],
      ["retrieve", request(1, "retrieve", { scope: "user", query: "q", now: 1, budget: -1 })],
      ["retrieve", request(1, "retrieve", { scope: "user", query: "q", now: 1 })],
      ["shutdown", request(1, "shutdown", { now: 1 })],
    ];
    for (const [method, message] of bad) {
      expect(requestSchema(method as never).safeParse(message).success, JSON.stringify(message)).toBe(false);
    }
  });

  it("declares a memory exactly as the harness writes it, and nothing more", () => {
    expect(memorySchema.safeParse(MEMORY).success).toBe(true);
    expect(memorySchema.safeParse({ ...MEMORY, kind: "dream" }).success).toBe(false);
    expect(memorySchema.safeParse({ ...MEMORY, importance: 11 }).success).toBe(false);
    expect(memorySchema.safeParse({ ...MEMORY, tokens: -1 }).success).toBe(false);
    expect(memorySchema.safeParse({ ...MEMORY, embedding: [0.1] }).success).toBe(false);
    const { supersedes: _, ...withoutSupersedes } = MEMORY;
    expect(memorySchema.safeParse(withoutSupersedes).success).toBe(false);
  });

  it("accepts the results a system may give", () => {
    expect(resultSchema("initialize").safeParse(result(1, { protocol: PROTOCOL })).success).toBe(true);
    expect(resultSchema("initialize").safeParse(result(1, { protocol: PROTOCOL, name: "bm25" })).success).toBe(true);
    for (const method of ["open", "write", "close", "shutdown"] as const) {
      expect(resultSchema(method).safeParse(result(2, null)).success, method).toBe(true);
      expect(resultSchema(method).safeParse(result(2, {})).success, method).toBe(true);
    }
    expect(resultSchema("retrieve").safeParse(result(3, { ids: ["m1", "m2"] })).success).toBe(true);
    expect(resultSchema("retrieve").safeParse(result(3, { ids: [], block: "" })).success).toBe(true);
  });

  it("refuses results the protocol does not allow", () => {
    const bad: [keyof typeof RESULTS, unknown][] = [
      ["initialize", { protocol: "recollect-system/2" }],
      ["initialize", {}],
      ["open", { ok: true }],
      ["write", "done"],
      ["retrieve", { id: ["m1"] }],
      ["retrieve", { ids: "m1" }],
      ["retrieve", { ids: [1, 2] }],
      ["retrieve", { ids: ["m1"], block: 3 }],
      ["retrieve", { ids: ["m1"], sections: [] }],
      ["retrieve", null],
    ];
    for (const [method, value] of bad) {
      expect(RESULTS[method].safeParse(value).success, `${method}: ${JSON.stringify(value)}`).toBe(false);
      expect(resultSchema(method).safeParse(result(1, value)).success).toBe(false);
    }
  });

  it("takes any reply with an id and a result, or an error object, before the result is checked against its method", () => {
    expect(replySchema.safeParse(result(4, { anything: true })).success).toBe(true);
    expect(replySchema.safeParse(result(4, null)).success).toBe(true);
    const error = { jsonrpc: "2.0", id: 4, error: { code: -32000, message: "the index is corrupt", data: { file: "index.db" } } };
    expect(replySchema.safeParse(error).success).toBe(true);
    expect(errorSchema.safeParse(error).success).toBe(true);
    for (const reply of [
      { jsonrpc: "2.0", id: 4 },
      { jsonrpc: "2.0", result: null },
      { jsonrpc: "2.0", id: "4", result: null },
      { jsonrpc: "2.0", id: 4, result: null, error: { code: 1, message: "both" } },
      { jsonrpc: "2.0", id: 4, error: { code: 1.5, message: "not an integer code" } },
      { jsonrpc: "2.0", id: 4, error: { message: "no code" } },
      { id: 4, result: null },
      [result(4, null)],
    ]) {
      expect(replySchema.safeParse(reply).success, JSON.stringify(reply)).toBe(false);
    }
  });
});

describe("protocolJsonSchemas", () => {
  const schemas = protocolJsonSchemas();

  it("lists one request and one result schema per method, and the error schema", () => {
    expect(Object.keys(schemas).sort()).toEqual(
      [...METHODS.flatMap((m) => [`${m}.request.schema.json`, `${m}.result.schema.json`]), "error.schema.json"].sort(),
    );
  });

  it("titles each schema with the protocol and what it describes", () => {
    expect(schemas["retrieve.request.schema.json"]).toMatchObject({ title: "recollect-system/1: the harness's retrieve request" });
    expect(schemas["retrieve.result.schema.json"]).toMatchObject({ title: "recollect-system/1: the system's reply to retrieve" });
    expect(schemas["error.schema.json"]).toMatchObject({ title: "recollect-system/1: the system's error reply to any request" });
  });

  it("writes the declarations out: the retrieve result needs ids, allows a block and nothing else", () => {
    const retrieve = schemas["retrieve.result.schema.json"] as {
      required: string[];
      properties: { result: { required: string[]; properties: Record<string, unknown>; additionalProperties: boolean } };
    };
    expect(retrieve.required).toEqual(expect.arrayContaining(["jsonrpc", "id", "result"]));
    expect(retrieve.properties.result.required).toEqual(["ids"]);
    expect(Object.keys(retrieve.properties.result.properties).sort()).toEqual(["block", "ids"]);
    expect(retrieve.properties.result.additionalProperties).toBe(false);
  });

  it("is what schemas/system-protocol/ holds, so the published schemas never drift from the code", () => {
    for (const [name, schema] of Object.entries(schemas)) {
      const published = JSON.parse(readFileSync(repoPath(`schemas/system-protocol/${name}`), "utf8"));
      expect(published, name).toEqual(schema);
    }
  });
});
