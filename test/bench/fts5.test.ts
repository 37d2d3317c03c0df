import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Fts5Peer } from "../../src/bench/fts5.js";
import { cheapTokenCounter } from "../../src/bench/synthetic.js";
import type { NewMemory } from "../../src/memory/types.js";
import { tempPath } from "../memory/helpers.js";

const memory = (id: string, text: string): NewMemory => ({
  id,
  scope: "bench",
  kind: "semantic",
  text,
  createdAt: 0,
  embedding: { model: "m", vector: [1, 0, 0] },
});

describe("FTS5 peer", () => {
  it("stores every row and ranks the rows matching any word by bm25(), best first", () => {
    const peer = new Fts5Peer(tempPath("fts5.sqlite"), cheapTokenCounter);
    const rows = [
      memory("a", "kalo ravo"),
      memory("b", "kalo kalo kalo"),
      memory("c", "suter bino"),
      ...Array.from({ length: 40 }, (_, i) => memory(`x${i}`, `filler words ${i}`)),
    ];
    peer.insert(rows);
    expect(peer.topK(["kalo"], 5)).toEqual([2, 1]);
    expect(peer.topK(["bino", "ravo"], 5).sort()).toEqual([1, 3]);
    expect(peer.topK(["filler"], 5)).toHaveLength(5);
    expect(peer.topK(['quo"te'], 5)).toEqual([]);
    expect(peer.topK([], 5)).toEqual([]);
    peer.close();
  });

  it("stores each row's columns, its embedding as the float32 bytes the store binds", () => {
    const file = tempPath("fts5-rows.sqlite");
    const peer = new Fts5Peer(file, cheapTokenCounter);
    const given = Float32Array.of(0.5, -2, 3.25);
    const rows = Array.from({ length: 33 }, (_, i) => memory(`r${i}`, `row ${i}`));
    rows[32] = { ...rows[32], embedding: { model: "f32", vector: given } };
    peer.insert(rows);
    peer.close();
    const db = new Database(file, { readonly: true });
    const stored = db.prepare("SELECT id, embedding, embedding_model AS model FROM memories ORDER BY rowid").all() as {
      id: string;
      embedding: Buffer;
      model: string;
    }[];
    db.close();
    expect(stored.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect([...new Float32Array(new Uint8Array(stored[0].embedding).buffer)]).toEqual([1, 0, 0]);
    expect(stored[32]).toMatchObject({ model: "f32" });
    expect([...new Float32Array(new Uint8Array(stored[32].embedding).buffer)]).toEqual([0.5, -2, 3.25]);
  });
});
