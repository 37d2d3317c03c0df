import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { Memory } from "../../../src/memory/index.js";
import { blobToVector, COLUMNS_PER_ROW, MEMORY_COLUMNS, MEMORY_ROW, type MemoryRow, pushRow, rowToMemory, SCHEMA_V5, vectorToBlob } from "../../../src/memory/store/schema.js";

const memory: Memory = {
  id: "m1",
  scope: "ana",
  kind: "episodic",
  text: "went to Lisbon",
  createdAt: 10,
  occurredAt: 5,
  lastAccessedAt: 12,
  importance: 7,
  tokens: 4,
  supersedes: "m0",
  expiresAt: 99,
  source: "turn-3",
  embedding: Float32Array.of(1, 0.5),
  embeddingModel: "e",
};

describe("MEMORY_ROW, the one list of the memories table's columns", () => {
  it("names every column of the v5 table, in the table's order, after seq", () => {
    const db = new Database(":memory:");
    db.exec(SCHEMA_V5);
    const columns = (db.pragma("table_info(memories)") as { name: string }[]).map((c) => c.name);
    db.close();
    expect(MEMORY_COLUMNS.split(", ")).toEqual(columns);
    expect(COLUMNS_PER_ROW).toBe(columns.length);
  });

  it("holds every field of a memory once", () => {
    expect(MEMORY_ROW.map((c) => c.field).sort()).toEqual(Object.keys(memory).sort());
  });

  it("makes a memory into insert parameters and back, the embedding as float32 bytes", () => {
    const params = pushRow([], 7, memory);
    expect(params).toHaveLength(COLUMNS_PER_ROW);
    const row = Object.fromEntries(MEMORY_COLUMNS.split(", ").map((name, i) => [name, params[i]])) as MemoryRow;
    expect(row.seq).toBe(7);
    expect(row.embedding).toBeInstanceOf(Buffer);
    expect(rowToMemory(row)).toEqual(memory);
  });

  it("keeps nulls as nulls both ways", () => {
    const bare: Memory = { ...memory, occurredAt: null, supersedes: null, expiresAt: null, source: null, embedding: null, embeddingModel: null };
    const params = pushRow([], 1, bare);
    const row = Object.fromEntries(MEMORY_COLUMNS.split(", ").map((name, i) => [name, params[i]])) as MemoryRow;
    expect(rowToMemory(row)).toEqual(bare);
  });
});

describe("vectorToBlob", () => {
  it("gives a Float32Array's own bytes, with no copy", () => {
    const vector = Float32Array.of(1, 2, 3, 4).subarray(1, 3);
    const blob = vectorToBlob(vector);
    expect(blob.buffer).toBe(vector.buffer);
    expect(blob.byteOffset).toBe(4);
    expect([...blobToVector(blob)]).toEqual([2, 3]);
  });

  it("rounds any other array to float32 in new bytes", () => {
    const blob = vectorToBlob([0.1, 1e40, -2]);
    expect([...blobToVector(blob)]).toEqual([Math.fround(0.1), Number.POSITIVE_INFINITY, -2]);
  });
});
