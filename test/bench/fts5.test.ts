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
});
