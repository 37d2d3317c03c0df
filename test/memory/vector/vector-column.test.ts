import { afterEach, describe, expect, it, vi } from "vitest";
import { relevanceScore } from "../../../src/memory/scoring.js";
import { cosineOf, dotLanes } from "../../../src/memory/vector/lanes.js";
import { type CosinesKernel, simdCosinesModuleBytes } from "../../../src/memory/vector/simd-cosines.js";
import { type DotsKernel, READ_AHEAD, STREAMS, simdDotsModuleBytes } from "../../../src/memory/vector/simd-dots.js";
import { CHUNK_BYTES, SIMD_MIN_FLOATS, VectorColumn } from "../../../src/memory/vector/vector-column.js";
import { RESULT_SLOTS } from "../../../src/memory/vector/chunk.js";
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

describe("cosineOf", () => {
  it("divides a product by both norms, and gives 0 for a vector of norm 0 rather than dividing by it", () => {
    expect(cosineOf(6, 2, 3)).toBe(1);
    expect(cosineOf(-3, 2, 3)).toBe(-0.5);
    expect(cosineOf(5, 2, 0)).toBe(0);
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
  // Counts below, at and past multiples of STREAMS: the kernel reads one vector from each of
  // STREAMS equal parts at a time, and those past the parts one at a time.
  it("computes dotLanes for each vector at 4-byte strides, for every dim 1…40 and count 0…19", () => {
    const memory = sharedMemory(1);
    const module = new WebAssembly.Module(simdDotsModuleBytes());
    const dots = new WebAssembly.Instance(module, { env: { memory } }).exports.dots as DotsKernel;
    for (let dim = 1; dim <= 40; dim++) {
      for (let count = 0; count <= 2 * STREAMS + 3; count++) {
        const [query, ...vectors] = randomVectors(1 + count, dim, 100 * dim + count);
        const vectorsAt = 16 * Math.ceil(dim / 4) + 4; // past the query, and 4 bytes off a 16-byte boundary
        const outAt = 8192;
        new Float32Array(memory.buffer, 0, dim).set(query);
        new Float32Array(memory.buffer, vectorsAt, count * dim).set(vectors.flat());
        new Float64Array(memory.buffer, outAt, count + 1).fill(-1);
        dots(vectorsAt, dim, count, 0, outAt);
        const expected = vectors.map((v) => dotLanes(query, 0, Float32Array.from(v), 0, dim));
        expect(Array.from(new Float64Array(memory.buffer, outAt, count + 1)), `dim ${dim}, count ${count}`).toEqual([...expected, -1]);
      }
    }
  });

  it("has a cosine pass that makes products into cosines in place as cosineOf does, 0 where a norm is 0, and gives the largest", () => {
    const memory = sharedMemory(1);
    const module = new WebAssembly.Module(simdCosinesModuleBytes());
    const cosines = new WebAssembly.Instance(module, { env: { memory } }).exports.cosines as CosinesKernel;
    // Products of every sign and size, norms among them 0 and -0; the pairs in SIMD, an odd count's last one alone.
    const products = [0.5, -0.25, 3, 0, -0, 1e-300, 7, -2, 1 / 3];
    const norms = [2, 0, 1.5, 4, 3, 1e-10, -0, 0.1, 3.3];
    const queryNorm = 1.7;
    for (const count of [9, 8, 1, 0]) {
      new Float64Array(memory.buffer, 0, 10).set([...products, 99]);
      new Float64Array(memory.buffer, 1024, 10).set([...norms, 5]);
      const expected = products.slice(0, count).map((dot, i) => cosineOf(dot, queryNorm, norms[i]));
      expect(cosines(0, 1024, count, queryNorm), `count ${count}`).toBe(Math.max(...expected));
      const written = Array.from(new Float64Array(memory.buffer, 0, count));
      expect(written, `count ${count}`).toEqual(expected);
      expect(written.map((c) => Object.is(c, 0)), `count ${count}`).toEqual(expected.map((c) => Object.is(c, 0)));
      // Nothing past the count is read into the largest or written.
      expect(new Float64Array(memory.buffer, 0, 10).subarray(count), `count ${count}`).toEqual(Float64Array.from([...products, 99].slice(count)));
    }
    // A product that is not a number makes the largest not a number, in a pair or alone.
    for (const at of [2, 8]) {
      new Float64Array(memory.buffer, 0, 9).set(products.map((p, i) => (i === at ? Number.NaN : p)));
      new Float64Array(memory.buffer, 1024, 9).set(norms.map((n) => n || 1));
      expect(cosines(0, 1024, 9, queryNorm), `NaN at ${at}`).toBeNaN();
    }
  });

  it("reads READ_AHEAD bytes past its last vector, and no further", () => {
    const memory = sharedMemory(1);
    const module = new WebAssembly.Module(simdDotsModuleBytes());
    const dots = new WebAssembly.Instance(module, { env: { memory } }).exports.dots as DotsKernel;
    const dim = 16;
    // A vector from each part, and one past the parts.
    const count = STREAMS + 1;
    const [query, ...vectors] = randomVectors(1 + count, dim, 7);
    new Float32Array(memory.buffer, 0, dim).set(query);
    const expected = vectors.map((v) => dotLanes(query, 0, Float32Array.from(v), 0, dim));
    const endingAt = (end: number) => {
      const vectorsAt = end - count * dim * 4;
      new Float32Array(memory.buffer, vectorsAt, count * dim).set(vectors.flat());
      dots(vectorsAt, dim, count, 0, 256);
      return Array.from(new Float64Array(memory.buffer, 256, count));
    };
    expect(endingAt(65_536 - READ_AHEAD)).toEqual(expected);
    expect(() => endingAt(65_536 - READ_AHEAD + 64)).toThrow(WebAssembly.RuntimeError);
  });

  it("has that room in a chunk whose vectors end at a page's end", () => {
    // 511 slots of 16 floats end a chunk's query, results and vectors exactly at 64 KiB.
    const column = new VectorColumn(16, 511, { simd: "always", chunkSlots: 511 });
    const vectors = randomVectors(511, 16, 11);
    vectors.forEach((v, slot) => column.set(slot, v));
    const query = vectors[3];
    expect(Array.from(column.dots(query, 511))).toEqual(vectors.map((v) => dotLanes(query, 0, Float32Array.from(v), 0, 16)));
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
    expect(column.chunksOf(2)[0].wasmMemory).toBeNull();
    column.set(0, [1, 2, 3]);
    column.set(1, [4, 5, 6]);
    expect(Array.from(column.dots([1, 0, 2], 2))).toEqual([7, 16]);
  });
});

describe("vector column", () => {
  /** A JS column and wasm columns of one chunk and of many, all holding `vectors`. */
  function columnsOf(vectors: number[][], dim: number, chunkSlots: number) {
    const columns = {
      js: new VectorColumn(dim, 1, { simd: "never" }),
      jsChunks: new VectorColumn(dim, 1, { simd: "never", chunkSlots }),
      wasm: new VectorColumn(dim, 1, { simd: "always" }),
      wasmChunks: new VectorColumn(dim, 1, { simd: "always", chunkSlots }),
    };
    for (const column of Object.values(columns)) {
      column.grow(vectors.length);
      vectors.forEach((v, slot) => column.set(slot, v));
    }
    return columns;
  }

  it("assembles a valid WebAssembly SIMD module", () => {
    expect(WebAssembly.validate(simdDotsModuleBytes())).toBe(true);
  });

  it.each([1, 3, 7, 8, 9, 16, 23, 24, 31, 384])(
    "computes the same dots and norms bit for bit in JS and in SIMD, in one chunk and in many (dim %i)",
    (dim) => {
      const vectors = randomVectors(200, dim, dim);
      const columns = columnsOf(vectors, dim, 7);
      expect([columns.wasm.chunkCount, columns.wasmChunks.chunkCount, columns.jsChunks.chunkCount]).toEqual([1, 29, 29]);
      expect([columns.wasm.usesSimd, columns.wasmChunks.usesSimd, columns.jsChunks.usesSimd]).toEqual([true, true, false]);
      const [query] = randomVectors(1, dim, 99);
      const expected = vectors.map((v) => dotLanes(query, 0, Float32Array.from(v), 0, dim));
      const norms = vectors.map((v) => Math.sqrt(dotLanes(v, 0, v, 0, dim)));
      for (const [name, column] of Object.entries(columns)) {
        expect(Array.from(column.dots(query, vectors.length)), name).toEqual(expected);
        expect(vectors.map((_, slot) => column.norm(slot)), name).toEqual(norms);
      }
    },
  );

  it("answers dots for the first `count` slots only, into the array it is given", () => {
    const vectors = randomVectors(30, 5, 4);
    const [query] = randomVectors(1, 5, 8);
    for (const [name, column] of Object.entries(columnsOf(vectors, 5, 4))) {
      const out = new Float64Array(40).fill(-1);
      expect(column.dots(query, 13, out), name).toBe(out);
      expect(Array.from(out.subarray(0, 13)), name).toEqual(vectors.slice(0, 13).map((v) => dotLanes(query, 0, Float32Array.from(v), 0, 5)));
      expect(Array.from(out.subarray(13)), name).toEqual(new Array(27).fill(-1));
    }
  });

  it("gives cosines as cosineOf makes them of the products, across result blocks and chunks, 0 where a norm is 0, and returns the largest", () => {
    const count = RESULT_SLOTS + 9;
    // Every fifth vector is zero, so of norm 0.
    const vectors = randomVectors(count, 6, 21).map((v, slot) => (slot % 5 === 0 ? v.map(() => 0) : v));
    const [query] = randomVectors(1, 6, 5);
    const queryNorm = Math.sqrt(dotLanes(query, 0, query, 0, 6));
    const norms = vectors.map((v) => Math.sqrt(dotLanes(v, 0, v, 0, 6)));
    const expected = vectors.map((v, slot) => cosineOf(dotLanes(query, 0, Float32Array.from(v), 0, 6), queryNorm, norms[slot]));
    expect(expected.filter((c) => c === 0)).toHaveLength(Math.ceil(count / 5));
    for (const [name, column] of Object.entries(columnsOf(vectors, 6, 1_000))) {
      const out = new Float64Array(count + 3).fill(-1);
      expect(column.cosines(query, queryNorm, count, out), name).toBe(Math.max(...expected));
      expect(Array.from(out), name).toEqual([...expected, -1, -1, -1]);
    }
  });

  it("gives every slot its own product across the kernel's result blocks, within a chunk and across chunks", () => {
    const count = 2 * RESULT_SLOTS + 5;
    const vectors = Array.from({ length: count }, (_, slot) => [slot, 1]);
    const columns = [new VectorColumn(2, count, { simd: "always" }), new VectorColumn(2, count, { simd: "always", chunkSlots: RESULT_SLOTS + 3 })];
    for (const column of columns) {
      vectors.forEach((v, slot) => column.set(slot, v));
      expect(Array.from(column.dots([1, 0.5], count))).toEqual(vectors.map(([slot]) => slot + 0.5));
    }
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

  it("agrees with relevanceScore, which sums in the same lanes", () => {
    const [q, m] = randomVectors(2, 384, 7);
    const column = new VectorColumn(384, 1, { simd: "always" });
    column.set(0, m);
    const m32 = Float32Array.from(m);
    const out = new Float64Array(1);
    column.cosines(q, Math.sqrt(dotLanes(q, 0, q, 0, 384)), 1, out);
    expect(out[0]).toBe(relevanceScore(q, m32));
  });

  it("keeps every vector as it grows by doubling into wasm memory and across many chunks", () => {
    const column = new VectorColumn(8, 2, { chunkSlots: 5_000 });
    const vectors = randomVectors(40_000, 8, 3);
    let capacity = 2;
    vectors.forEach((v, slot) => {
      if (slot === capacity) column.grow((capacity *= 2));
      column.set(slot, v);
    });
    expect(column.usesSimd).toBe(true);
    expect(column.chunkCount).toBe(Math.ceil(65_536 / 5_000));
    expect(column.copy(vectors.length)).toEqual(Float32Array.from(vectors.flat()));
    expect(Array.from(column.vector(39_999))).toEqual(Array.from(Float32Array.from(vectors[39_999])));
    // Lent views are of their memory's buffer as it is now, however often that memory grew.
    expect(column.chunksOf(vectors.length).every((c) => c.vectors.buffer === c.wasmMemory?.buffer)).toBe(true);
  });

  it("grows by adding chunks and growing only the last, never moving a vector already written", () => {
    const column = new VectorColumn(4, 3, { simd: "always", chunkSlots: 10 });
    column.set(2, [1, 2, 3, 4]);
    const [first] = column.chunksOf(3);
    column.grow(15);
    const grown = column.chunksOf(15);
    expect(grown.map((c) => c.vectors.length)).toEqual([40, 20]);
    expect(grown[0].wasmMemory).toBe(first.wasmMemory);
    expect(grown[0].vectors.byteOffset).toBe(first.vectors.byteOffset);
    expect(new Set(grown.map((c) => c.wasmMemory)).size).toBe(2);
    const second = grown[1].wasmMemory;
    column.grow(30);
    expect(column.chunksOf(30).map((c) => c.wasmMemory)).toEqual([first.wasmMemory, second, expect.any(WebAssembly.Memory)]);
    expect(Array.from(column.vector(2))).toEqual([1, 2, 3, 4]);
  });

  it("lends its chunks in slot order, cut to the slots asked for, as views of what it holds", () => {
    const vectors = randomVectors(23, 3, 11);
    const { wasmChunks, jsChunks } = columnsOf(vectors, 3, 7);
    for (const column of [wasmChunks, jsChunks]) {
      const chunks = column.chunksOf(16);
      expect(chunks.map((c) => c.vectors.length)).toEqual([21, 21, 6]);
      // Slots that end where a chunk does: no empty chunk after them.
      expect(column.chunksOf(14).map((c) => c.vectors.length)).toEqual([21, 21]);
      expect(Float32Array.from(chunks.flatMap((c) => Array.from(c.vectors)))).toEqual(column.copy(16));
      expect(column.copy(16)).toEqual(Float32Array.from(vectors.slice(0, 16).flat()));
    }
    expect(wasmChunks.chunksOf(16).every((c) => c.wasmMemory?.buffer === c.vectors.buffer)).toBe(true);
    expect(jsChunks.chunksOf(16).every((c) => c.wasmMemory === null)).toBe(true);
  });

  it("holds 8,192-dim vectors past the 65,537th, beyond 4 GiB in all, with every chunk within one memory's 4 GiB", () => {
    const dim = 8_192;
    const column = new VectorColumn(dim, 1);
    column.grow(140_000); // 4.27 GiB of vectors: one 32-bit memory could not hold them
    expect(column.usesSimd).toBe(true);
    expect(column.chunkCount).toBe(Math.ceil(140_000 / (CHUNK_BYTES / (dim * 4))));
    const v = Float32Array.from({ length: dim }, (_, i) => (i % 3) - 1);
    for (const slot of [0, 65_536, 139_999]) column.set(slot, v);
    const expected = dotLanes(v, 0, v, 0, dim);
    expect([0, 65_536, 139_999].map((slot) => column.norm(slot))).toEqual([Math.sqrt(expected), Math.sqrt(expected), Math.sqrt(expected)]);
    expect(column.dots(v, 2)[0]).toBe(expected);
    expect(Array.from(column.vector(139_999))).toEqual(Array.from(v));
  });

  it("moves to wasm memory when it reaches SIMD_MIN_FLOATS, not before", () => {
    const slots = SIMD_MIN_FLOATS / 8;
    const column = new VectorColumn(8, slots - 1);
    expect(column.usesSimd).toBe(false);
    expect(column.chunksOf(1)[0].wasmMemory).toBeNull();
    column.set(slots - 2, [1, 2, 3, 4, 5, 6, 7, 8]);
    column.grow(slots);
    expect(column.usesSimd).toBe(true);
    expect(column.norm(slots - 2)).toBe(Math.sqrt(204));
    expect(new VectorColumn(8, slots).usesSimd).toBe(true);
  });

  it("stays on the JS path when told to, at any size, and goes to wasm when told to, at any size", () => {
    const never = new VectorColumn(8, SIMD_MIN_FLOATS / 8, { simd: "never" });
    expect(never.usesSimd).toBe(false);
    never.grow(SIMD_MIN_FLOATS / 4);
    expect(never.usesSimd).toBe(false);
    expect(never.chunksOf(1)[0].wasmMemory).toBeNull();
    const always = new VectorColumn(8, 1, { simd: "always" });
    expect(always.usesSimd).toBe(true);
    const [chunk] = always.chunksOf(1);
    expect(chunk.wasmMemory?.buffer).toBe(chunk.vectors.buffer);
  });

  it("changes nothing when asked to grow to the capacity it has, or less", () => {
    const column = new VectorColumn(3, 4, { simd: "never" });
    column.set(3, [1, 2, 3]);
    const [chunk] = column.chunksOf(4);
    column.grow(4);
    column.grow(2);
    expect(column.chunksOf(4)[0].vectors.buffer).toBe(chunk.vectors.buffer);
    expect(Array.from(column.vector(3))).toEqual([1, 2, 3]);
  });

  it("grows a chunk's wasm memory in place, by the 64 KiB pages that the query, results, norms, vectors and read-ahead need", () => {
    // With dim 4 and 8,192 slots a chunk, the norms fill 65,536 bytes, so 16 + 8·RESULT_SLOTS + 65,536 + 16c + READ_AHEAD
    // bytes fill two pages exactly at c = (2·65,536 − 16 − 8·RESULT_SLOTS − 65,536 − READ_AHEAD) / 16.
    const fits = (2 * 65_536 - 16 - 8 * RESULT_SLOTS - 65_536 - READ_AHEAD) / 16;
    const column = new VectorColumn(4, 100, { simd: "always", chunkSlots: 8_192 });
    const [{ wasmMemory }] = column.chunksOf(1);
    column.grow(fits);
    expect(wasmMemory?.buffer.byteLength).toBe(2 * 65_536);
    column.grow(fits + 1);
    expect(column.chunksOf(1)[0].wasmMemory).toBe(wasmMemory);
    expect(wasmMemory?.buffer.byteLength).toBe(3 * 65_536);
  });

  it("keeps a chunk's vectors at the same place in a cache line and a page, whatever room its norms take", () => {
    for (const chunkSlots of [1, 511, 512, 513, 100_000]) {
      const column = new VectorColumn(384, 1, { simd: "always", chunkSlots });
      expect(column.chunksOf(1)[0].vectors.byteOffset % 4_096, `${chunkSlots}`).toBe((384 * 4 + 8 * RESULT_SLOTS) % 4_096);
    }
  });

  it("refuses chunks that are not a whole number of slots, or that one wasm memory could not hold", () => {
    for (const chunkSlots of [0, 2.5]) {
      expect(() => new VectorColumn(4, 1, { chunkSlots })).toThrow(/chunks must hold a whole number of slots, at least 1, within 4 GiB \(got .* slots of 4 floats\)/);
    }
    expect(() => new VectorColumn(1, 1, { chunkSlots: 2 ** 30 })).toThrow("got 1073741824 slots of 1 floats");
    // A chunk of 4 floats a slot fills 4 GiB exactly with 178,955,487 slots: query, results, their norms' room in
    // whole pages of 4,096 bytes, vectors and read-ahead. One slot more does not fit.
    const most = 178_955_487;
    expect(16 + 8 * RESULT_SLOTS + 4_096 * Math.ceil((8 * most) / 4_096) + 16 * most + READ_AHEAD).toBe(2 ** 32);
    expect(() => new VectorColumn(4, 1, { chunkSlots: most + 1 })).toThrow(`got ${most + 1} slots of 4 floats`);
    expect(new VectorColumn(4, 1, { chunkSlots: most }).chunkSlots).toBe(most);
  });

  it("says how large the column was to be when the machine runs out of memory, keeping what it holds", () => {
    const dim = 1_024;
    const column = new VectorColumn(dim, 2, { simd: "always" });
    const ones = new Array(dim).fill(1);
    column.set(1, ones);
    const refusal = new RangeError("WebAssembly.Memory.grow(): Unable to grow instance memory");
    vi.spyOn(WebAssembly.Memory.prototype, "grow").mockImplementation(() => {
      throw refusal;
    });
    expect(() => column.grow(300_000)).toThrow(
      new Error("an embedding column of 300000 × 1024 floats (1.14 GiB) needs more memory than this process can get: WebAssembly.Memory.grow(): Unable to grow instance memory"),
    );
    // The runtime's own error stays at the end of the chain of causes.
    expect(() => column.grow(300_000)).toThrow(expect.objectContaining({ cause: expect.objectContaining({ cause: refusal }) }));
    vi.restoreAllMocks();
    expect(column.norm(1)).toBe(Math.sqrt(dim));
    column.grow(250);
    column.set(249, ones);
    expect(Array.from(column.dots(ones, 250).subarray(248))).toEqual([0, dim]);
  });

  it("passes on any other failure as it is", () => {
    const column = new VectorColumn(4, 2, { simd: "always" });
    vi.spyOn(WebAssembly.Memory.prototype, "grow").mockImplementation(() => {
      throw new TypeError("not ours");
    });
    expect(() => column.grow(100_000)).toThrow(new TypeError("not ours"));
    vi.restoreAllMocks();
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
    const [{ vectors, wasmMemory }] = column.chunksOf(1);
    const at = (slot: number) => vectors.byteOffset + slot * 16;
    column.expectWrites(10, 30);
    column.expectWrites(90, 130);
    column.expectWrites(100, 120);
    expect(prefaulter.ranges).toEqual([
      [wasmMemory, at(10), at(30)],
      [wasmMemory, at(90), at(100)],
      [wasmMemory, at(100), at(100)],
    ]);
  });

  it("asks for each chunk's part of the slots in that chunk's own memory", () => {
    const prefaulter = new RecordingPrefaulter();
    const column = new VectorColumn(4, 100, { simd: "always", prefaulter, chunkSlots: 40 });
    const chunks = column.chunksOf(100);
    const at = (c: number, slot: number) => [chunks[c].wasmMemory, chunks[c].vectors.byteOffset + slot * 16];
    column.expectWrites(30, 95);
    column.expectWrites(95, 200);
    expect(prefaulter.ranges).toEqual([
      [...at(0, 30), at(0, 40)[1]],
      [...at(1, 0), at(1, 40)[1]],
      [...at(2, 0), at(2, 15)[1]],
      [...at(2, 15), at(2, 20)[1]],
    ]);
  });

  it("asks for nothing past a capacity that ends where a chunk does", () => {
    const prefaulter = new RecordingPrefaulter();
    const column = new VectorColumn(4, 80, { simd: "always", prefaulter, chunkSlots: 40 });
    const chunks = column.chunksOf(80);
    column.expectWrites(30, 200);
    expect(prefaulter.ranges.map(([memory, from, to]) => [chunks.findIndex((c) => c.wasmMemory === memory), from, to])).toEqual([
      [0, chunks[0].vectors.byteOffset + 30 * 16, chunks[0].vectors.byteOffset + 40 * 16],
      [1, chunks[1].vectors.byteOffset, chunks[1].vectors.byteOffset + 40 * 16],
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
    expect(column.norm(0)).toBe(Math.sqrt(30));
  });
});
