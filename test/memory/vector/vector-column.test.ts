import { describe, expect, it } from "vitest";
import { relevanceScore } from "../../../src/memory/scoring.js";
import { dotLanes } from "../../../src/memory/vector/lanes.js";
import { simdDotsModuleBytes } from "../../../src/memory/vector/simd-dots.js";
import { VectorColumn } from "../../../src/memory/vector/vector-column.js";

function randomVectors(count: number, dim: number, seed: number): number[][] {
  let a = seed;
  const next = () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a / 2 ** 31 - 1;
  };
  return Array.from({ length: count }, () => Array.from({ length: dim }, next));
}

describe("dotLanes", () => {
  it("rounds both inputs to float32", () => {
    expect(dotLanes([0.1], 0, [1], 0, 1)).toBe(Math.fround(0.1));
    expect(dotLanes([0.1], 0, [1], 0, 1)).not.toBe(0.1);
  });

  it("accumulates each lane in float32: 2^24 + 1 stays 2^24", () => {
    // Elements 0 and 8 share lane 0; float64 would keep the 1.
    const a = [2 ** 24, 0, 0, 0, 0, 0, 0, 0, 1];
    expect(dotLanes(a, 0, new Array(9).fill(1), 0, 9)).toBe(2 ** 24);
  });

  it("combines the lanes pairwise in float32, even lanes before odd", () => {
    // Lanes 0 and 2 cancel before 1 can be lost against 2^24; lane 1 joins last, rounded away.
    const a = [2 ** 24, 1, -(2 ** 24), 0, 0, 0, 0, 0];
    expect(dotLanes(a, 0, new Array(8).fill(1), 0, 8)).toBe(1);
    const b = [2 ** 24, 0, 0, 1, 0, 0, 0, 0];
    expect(dotLanes(b, 0, new Array(8).fill(1), 0, 8)).toBe(2 ** 24);
  });
});

describe("vector column", () => {
  it("assembles a valid WebAssembly SIMD module", () => {
    expect(WebAssembly.validate(simdDotsModuleBytes())).toBe(true);
  });

  it.each([1, 3, 7, 8, 9, 16, 23, 24, 31, 384])("computes the same dots and norms bit for bit in SIMD and in JS (dim %i)", (dim) => {
    const js = new VectorColumn(dim, 4, "never");
    const simd = new VectorColumn(dim, 4, "always");
    const vectors = randomVectors(200, dim, dim);
    js.grow(256);
    simd.grow(256);
    vectors.forEach((v, slot) => {
      js.set(slot, v);
      simd.set(slot, v);
    });
    expect(simd.usesSimd).toBe(true);
    const [query] = randomVectors(1, dim, 99);
    const a = Array.from(js.dots(query, vectors.length));
    const b = Array.from(simd.dots(query, vectors.length));
    expect(b).toEqual(a);
    expect(a[5]).toBe(dotLanes(query, 0, Float32Array.from(vectors[5]), 0, dim));
    const norms = (column: VectorColumn) => vectors.map((_, slot) => column.squaredNorm(slot));
    expect(norms(simd)).toEqual(norms(js));
    expect(js.squaredNorm(7)).toBe(dotLanes(vectors[7], 0, vectors[7], 0, dim));
  });

  it("rounds in float32 in the SIMD kernel too", () => {
    const column = new VectorColumn(9, 1, "always");
    column.set(0, [2 ** 24, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(column.usesSimd).toBe(true);
    expect(column.dots(new Array(9).fill(1), 1)[0]).toBe(2 ** 24);
    const single = new VectorColumn(1, 1, "always");
    single.set(0, [1]);
    expect(single.dots([0.1], 1)[0]).toBe(Math.fround(0.1));
  });

  it("keeps every vector when it grows into wasm memory", () => {
    const column = new VectorColumn(8, 2);
    const vectors = randomVectors(40_000, 8, 3);
    let capacity = 2;
    vectors.forEach((v, slot) => {
      if (slot === capacity) column.grow((capacity *= 2));
      column.set(slot, v);
    });
    expect(column.usesSimd).toBe(true);
    expect(Array.from(column.data.subarray(8 * 123, 8 * 124))).toEqual(Array.from(Float32Array.from(vectors[123])));
  });

  it("agrees with relevanceScore, which sums in the same lanes", () => {
    const [q, m] = randomVectors(2, 384, 7);
    const column = new VectorColumn(384, 1, "always");
    column.set(0, m);
    const m32 = Float32Array.from(m);
    const cosine = column.dots(q, 1)[0] / (Math.sqrt(dotLanes(q, 0, q, 0, 384)) * Math.sqrt(column.squaredNorm(0)));
    expect(cosine).toBe(relevanceScore(q, m32));
  });
});
