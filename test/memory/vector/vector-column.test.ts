import { afterEach, describe, expect, it, vi } from "vitest";
import { relevanceScore } from "../../../src/memory/scoring.js";
import { dotLanes } from "../../../src/memory/vector/lanes.js";
import { type DotsKernel, simdDotsModuleBytes } from "../../../src/memory/vector/simd-dots.js";
import { SIMD_MIN_FLOATS, VectorColumn } from "../../../src/memory/vector/vector-column.js";
import { Prefaulter } from "../../../src/memory/vector/prefault.js";
import { sharedMemory } from "../../../src/shared/wasm-encoding.js";

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

  it("multiplies exactly n elements, whatever follows them in the arrays", () => {
    const ones = new Array(24).fill(1);
    const n = Array.from({ length: 16 }, (_, i) => i + 1);
    expect(n.map((k) => dotLanes(ones, 2, ones, 3, k))).toEqual(n);
  });
});

describe("the SIMD kernel", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    // The fresh modules below cached "no SIMD" under a stubbed runtime. Where test files share one
    // module registry (the mutation suite runs with isolate: false), a later file would otherwise
    // import those and find every column on the JS path.
    vi.resetModules();
  });

  // Built here rather than through a column, whose kernel is compiled once and cached.
  it("computes dotLanes for each vector at 4-byte strides, for every dim 1…40", () => {
    const memory = sharedMemory(1);
    const module = new WebAssembly.Module(simdDotsModuleBytes());
    const dots = new WebAssembly.Instance(module, { env: { memory } }).exports.dots as DotsKernel;
    const count = 3;
    for (let dim = 1; dim <= 40; dim++) {
      const [query, ...vectors] = randomVectors(1 + count, dim, dim);
      const vectorsAt = 16 * Math.ceil(dim / 4) + 4; // past the query, and 4 bytes off a 16-byte boundary
      const outAt = 2048;
      new Float32Array(memory.buffer, 0, dim).set(query);
      new Float32Array(memory.buffer, vectorsAt, count * dim).set(vectors.flat());
      new Float64Array(memory.buffer, outAt, count + 1).fill(-1);
      dots(vectorsAt, dim, count, 0, outAt);
      const expected = vectors.map((v) => dotLanes(query, 0, Float32Array.from(v), 0, dim));
      expect(Array.from(new Float64Array(memory.buffer, outAt, count + 1)), `dim ${dim}`).toEqual([...expected, -1]);
    }
  });

  it("is compiled once, however many columns use it", () => {
    expect(new VectorColumn(8, 1, { simd: "always" }).usesSimd).toBe(true);
    const validate = vi.spyOn(WebAssembly, "validate");
    const columns = [new VectorColumn(8, 1, { simd: "always" }), new VectorColumn(3, 2, { simd: "always" })];
    expect(columns.map((column) => column.usesSimd)).toEqual([true, true]);
    expect(validate).not.toHaveBeenCalled();
  });

  // Fresh modules, so that the kernel is looked for again under the stubbed runtime.
  async function freshModules() {
    vi.resetModules();
    const simdDots = await import("../../../src/memory/vector/simd-dots.js");
    const vectorColumn = await import("../../../src/memory/vector/vector-column.js");
    return { ...simdDots, ...vectorColumn };
  }

  it("is not there where the runtime has no WebAssembly", async () => {
    const { instantiateDots } = await freshModules();
    vi.stubGlobal("WebAssembly", undefined);
    expect(instantiateDots({} as WebAssembly.Memory)).toBeNull();
  });

  it("is not there where WebAssembly lacks SIMD, and a column then stays on the JS path", async () => {
    const fresh = await freshModules();
    vi.spyOn(WebAssembly, "validate").mockReturnValue(false);
    expect(fresh.instantiateDots(sharedMemory(1))).toBeNull();
    const column = new fresh.VectorColumn(3, 2, { simd: "always" });
    expect(column.usesSimd).toBe(false);
    expect(column.wasmMemory).toBeNull();
    column.set(0, [1, 2, 3]);
    column.set(1, [4, 5, 6]);
    expect(Array.from(column.dots([1, 0, 2], 2))).toEqual([7, 16]);
  });
});

describe("vector column", () => {
  /** With dim 1 the query takes 16 bytes: 16 + 4c + 8c bytes of wasm memory are exactly 4 GiB. */
  const FOUR_GIB_SLOTS = (2 ** 32 - 16) / 12;

  it("assembles a valid WebAssembly SIMD module", () => {
    expect(WebAssembly.validate(simdDotsModuleBytes())).toBe(true);
  });

  it.each([1, 3, 7, 8, 9, 16, 23, 24, 31, 384])("computes the same dots and norms bit for bit in SIMD and in JS (dim %i)", (dim) => {
    const js = new VectorColumn(dim, 4, { simd: "never" });
    const simd = new VectorColumn(dim, 4, { simd: "always" });
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
    const column = new VectorColumn(9, 1, { simd: "always" });
    column.set(0, [2 ** 24, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(column.usesSimd).toBe(true);
    expect(column.dots(new Array(9).fill(1), 1)[0]).toBe(2 ** 24);
    const single = new VectorColumn(1, 1, { simd: "always" });
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
    const column = new VectorColumn(384, 1, { simd: "always" });
    column.set(0, m);
    const m32 = Float32Array.from(m);
    const cosine = column.dots(q, 1)[0] / (Math.sqrt(dotLanes(q, 0, q, 0, 384)) * Math.sqrt(column.squaredNorm(0)));
    expect(cosine).toBe(relevanceScore(q, m32));
  });

  it("moves to wasm memory when it reaches SIMD_MIN_FLOATS, not before", () => {
    const slots = SIMD_MIN_FLOATS / 8;
    const column = new VectorColumn(8, slots - 1);
    expect(column.usesSimd).toBe(false);
    expect(column.wasmMemory).toBeNull();
    column.set(slots - 2, [1, 2, 3, 4, 5, 6, 7, 8]);
    column.grow(slots);
    expect(column.usesSimd).toBe(true);
    expect(column.squaredNorm(slots - 2)).toBe(204);
    expect(new VectorColumn(8, slots).usesSimd).toBe(true);
  });

  it("stays on the JS path when told to, at any size, and goes to wasm when told to, at any size", () => {
    const never = new VectorColumn(8, SIMD_MIN_FLOATS / 8, { simd: "never" });
    expect(never.usesSimd).toBe(false);
    never.grow(SIMD_MIN_FLOATS / 4);
    expect(never.usesSimd).toBe(false);
    expect(never.wasmMemory).toBeNull();
    const always = new VectorColumn(8, 1, { simd: "always" });
    expect(always.usesSimd).toBe(true);
    expect(always.wasmMemory?.buffer).toBe(always.data.buffer);
  });

  it("answers dots on the SIMD path in wasm memory itself, without copying them out", () => {
    const column = new VectorColumn(3, 2, { simd: "always" });
    column.set(0, [1, 2, 3]);
    column.set(1, [4, 5, 6]);
    const dots = column.dots([1, 0, 2], 2);
    expect(Array.from(dots)).toEqual([7, 16]);
    expect(dots.buffer).toBe(column.wasmMemory?.buffer);
  });

  it("changes nothing when asked to grow to the capacity it has, or less", () => {
    const column = new VectorColumn(3, 4, { simd: "never" });
    column.set(3, [1, 2, 3]);
    const data = column.data;
    column.grow(4);
    column.grow(2);
    expect(column.data).toBe(data);
    expect(Array.from(column.data.subarray(9))).toEqual([1, 2, 3]);
  });

  it("grows its wasm memory in place, by the 64 KiB pages that the query, vectors and results need", () => {
    // With dim 4, 16 + 16c + 8c bytes fill one page exactly at c = 2730.
    const column = new VectorColumn(4, 2000, { simd: "always" });
    const memory = column.wasmMemory;
    const buffer = memory?.buffer;
    column.grow(2730);
    expect(column.wasmMemory?.buffer).toBe(buffer); // no page added: views taken before stay valid
    expect(buffer?.byteLength).toBe(65_536);
    column.grow(2731);
    expect(column.wasmMemory).toBe(memory);
    expect(memory?.buffer.byteLength).toBe(2 * 65_536);
    const vectors = randomVectors(2731, 4, 5);
    const js = new VectorColumn(4, 2731, { simd: "never" });
    vectors.forEach((v, slot) => {
      column.set(slot, v);
      js.set(slot, v);
    });
    const [query] = randomVectors(1, 4, 6);
    expect(Array.from(column.dots(query, 2731))).toEqual(Array.from(js.dots(query, 2731)));
  });

  it("moves to wasm memory when it needs exactly 4 GiB, and stays on the JS path beyond", () => {
    const fits = new VectorColumn(1, 1);
    fits.grow(FOUR_GIB_SLOTS);
    expect(fits.usesSimd).toBe(true);
    expect(fits.wasmMemory?.buffer.byteLength).toBe(2 ** 32);
    const beyond = new VectorColumn(1, 1);
    beyond.set(0, [2]);
    beyond.grow(FOUR_GIB_SLOTS + 1);
    expect(beyond.usesSimd).toBe(false);
    expect(beyond.data.length).toBe(FOUR_GIB_SLOTS + 1);
    expect(beyond.squaredNorm(0)).toBe(4);
  });

  it("grows a wasm column to exactly 4 GiB, and refuses to go beyond, naming its size", () => {
    const column = new VectorColumn(1, 1, { simd: "always" });
    expect(() => column.grow(FOUR_GIB_SLOTS + 1)).toThrow(
      new Error(`an embedding column of ${FOUR_GIB_SLOTS + 1} × 1 floats exceeds 4 GiB`),
    );
    column.grow(FOUR_GIB_SLOTS);
    expect(column.wasmMemory?.buffer.byteLength).toBe(2 ** 32);
    column.set(FOUR_GIB_SLOTS - 1, [3]);
    expect(column.squaredNorm(FOUR_GIB_SLOTS - 1)).toBe(9);
  });
});

/** Records the ranges it is asked to touch, and touches none. */
class RecordingPrefaulter extends Prefaulter {
  readonly ranges: [WebAssembly.Memory, number, number][] = [];
  override touch(memory: WebAssembly.Memory, from: number, to: number): void {
    this.ranges.push([memory, from, to]);
  }
}

describe("a column expecting writes", () => {
  it("asks its prefaulter to touch the bytes of the slots expected, up to its capacity", () => {
    const prefaulter = new RecordingPrefaulter();
    const column = new VectorColumn(4, 100, { simd: "always", prefaulter });
    const at = (slot: number) => column.data.byteOffset + slot * 16;
    column.expectWrites(10, 30);
    column.expectWrites(90, 130);
    column.expectWrites(100, 120);
    expect(prefaulter.ranges).toEqual([
      [column.wasmMemory, at(10), at(30)],
      [column.wasmMemory, at(90), at(100)],
      [column.wasmMemory, at(100), at(100)],
    ]);
  });

  it("asks nothing on the JS path, whose column is small", () => {
    const prefaulter = new RecordingPrefaulter();
    new VectorColumn(4, 100, { simd: "never", prefaulter }).expectWrites(0, 50);
    expect(prefaulter.ranges).toEqual([]);
  });

  it("does without a prefaulter", () => {
    const column = new VectorColumn(4, 100, { simd: "always" });
    column.expectWrites(0, 50);
    column.set(0, [1, 2, 3, 4]);
    expect(column.squaredNorm(0)).toBe(30);
  });
});
