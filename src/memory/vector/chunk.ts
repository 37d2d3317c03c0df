/**
 * One chunk of a vector column: a run of consecutive slots in a block of its own, either a plain
 * Float32Array read by the JS loop or a shared WebAssembly memory read by its own instance of the
 * SIMD kernel. Both compute `dotLanes`, so which kind holds a slot never changes a result.
 */
import { cosineOf, dotLanes } from "./lanes.js";
import type { Prefaulter } from "./prefault.js";
import { type CosinesKernel, instantiateCosines } from "./simd-cosines.js";
import { type DotsKernel, instantiateDots, READ_AHEAD } from "./simd-dots.js";
import { sharedMemory } from "../../shared/wasm-encoding.js";

/**
 * Products the kernel writes before they are copied out, at most: small enough to stay in cache
 * between the kernel's write, the cosine pass and the copy, large enough that the calls cost
 * nothing beside the pass over the vectors.
 */
export const RESULT_SLOTS = 4096;

const PAGE = 65_536;

/**
 * Turns each product into a cosine as it is written out (see cosineOf), with the query's norm and
 * each slot's own (kept by its chunk): while a block of products is still in cache, rather than in
 * a second pass over the whole output. `largest` gathers the largest cosine written (NaN once any
 * is NaN, as Math.max gives), which ranking takes as a bound on every relevance.
 */
export interface CosineScale {
  queryNorm: number;
  largest: number;
}

/** The runtime could not give a chunk the memory it asked for. */
export class OutOfMemory extends Error {}

/**
 * Runs one allocation, telling the RangeError a runtime throws when memory runs out (a memory it
 * cannot make or grow, an array buffer it cannot allocate) from every other failure.
 */
function allocate<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof RangeError) throw new OutOfMemory(error.message, { cause: error });
    throw error;
  }
}

export interface Chunk {
  /** The chunk's vectors, slot × dim, over its whole capacity; replaced when it grows. */
  readonly vectors: Float32Array;
  /** The memory holding them, when the SIMD kernel reads them. */
  readonly memory: WebAssembly.Memory | null;
  /** Grows to `slots` slots, keeping every vector and norm. */
  grow(slots: number): void;
  /** Writes the vector of its slot `slot`, and its norm. */
  write(slot: number, vector: ArrayLike<number>): void;
  /** The norm of its slot `slot`'s vector: the square root of its product with itself, summed in dotLanes' lanes (0 for a slot never written). */
  norm(slot: number): number;
  /** A view of the vectors of its slots 0…slots-1, over the current buffer of its memory when it has one. */
  view(slots: number): Float32Array;
  /** `dotLanes(query, vector[s])` for its slots 0…count-1, written to out[at + s], as cosines when `scale` is given. */
  dots(query: ArrayLike<number>, count: number, out: Float64Array, at: number, scale: CosineScale | null): void;
  /** Asks `prefaulter` to fault in the pages of slots [from, to), where that is worth it. */
  expectWrites(prefaulter: Prefaulter, from: number, to: number): void;
}

/** A chunk in a plain Float32Array: the JS path, for small columns and runtimes without SIMD. */
export class JsChunk implements Chunk {
  vectors: Float32Array;
  readonly memory = null;
  private norms: Float64Array;

  constructor(
    private readonly dim: number,
    slots: number,
  ) {
    this.vectors = allocate(() => new Float32Array(slots * dim));
    this.norms = allocate(() => new Float64Array(slots));
  }

  grow(slots: number): void {
    const vectors = allocate(() => new Float32Array(slots * this.dim));
    const norms = allocate(() => new Float64Array(slots));
    vectors.set(this.vectors);
    norms.set(this.norms);
    this.vectors = vectors;
    this.norms = norms;
  }

  write(slot: number, vector: ArrayLike<number>): void {
    const at = slot * this.dim;
    this.vectors.set(vector, at);
    this.norms[slot] = Math.sqrt(dotLanes(this.vectors, at, this.vectors, at, this.dim));
  }

  norm(slot: number): number {
    return this.norms[slot];
  }

  view(slots: number): Float32Array {
    return this.vectors.subarray(0, slots * this.dim);
  }

  dots(query: ArrayLike<number>, count: number, out: Float64Array, at: number, scale: CosineScale | null): void {
    const { dim, vectors } = this;
    for (let s = 0; s < count; s++) {
      const dot = dotLanes(query, 0, vectors, s * dim, dim);
      if (scale === null) {
        out[at + s] = dot;
        continue;
      }
      const cosine = cosineOf(dot, scale.queryNorm, this.norms[s]);
      out[at + s] = cosine;
      scale.largest = Math.max(scale.largest, cosine);
    }
  }

  expectWrites(): void {
    // A JS chunk is small, and its array was zeroed, so faulted in, when it was made.
  }
}

/**
 * A chunk in a shared WebAssembly memory of its own, laid out as the query (float32 × dim), the
 * kernel's results (RESULT_SLOTS float64), the norms of every slot it can hold (float64 ×
 * maxSlots: the cosine pass reads a block's norms where they are, rather than a copy), then the
 * vectors, which alone grow, then the READ_AHEAD bytes the kernel reads past them: the memory
 * grows in place, by pages, up to the most the chunk can hold. Pages of norms not yet written are
 * not resident.
 */
export class WasmChunk implements Chunk {
  vectors: Float32Array;
  readonly memory: WebAssembly.Memory;
  private readonly kernel: DotsKernel;
  private readonly cosines: CosinesKernel;
  private readonly query: Float32Array;
  private readonly results: Float64Array;
  private readonly resultsAt: number;
  private readonly norms: Float64Array;
  private readonly normsAt: number;
  private readonly vectorsAt: number;

  /**
   * A chunk of `slots` slots that can grow to `maxSlots`. Only where the runtime has WebAssembly
   * SIMD (see hasSimd): the column checks before it makes one.
   */
  constructor(
    private readonly dim: number,
    slots: number,
    private readonly maxSlots: number,
  ) {
    // Made as large as `slots` need, so that the views below fit from the start.
    this.memory = allocate(() => sharedMemory(pagesFor(dim, slots, maxSlots), pagesFor(dim, maxSlots, maxSlots)));
    const kernel = instantiateDots(this.memory);
    const cosines = instantiateCosines(this.memory);
    if (kernel === null || cosines === null) throw new Error("a wasm chunk was made where WebAssembly SIMD is missing");
    this.kernel = kernel;
    this.cosines = cosines;
    const layout = chunkLayout(dim, maxSlots);
    this.resultsAt = layout.resultsAt;
    this.normsAt = layout.normsAt;
    this.vectorsAt = layout.vectorsAt;
    this.query = new Float32Array(this.memory.buffer, 0, dim);
    // Shared memories never move as they grow, so views made now stay valid.
    this.results = new Float64Array(this.memory.buffer, this.resultsAt, RESULT_SLOTS);
    this.norms = new Float64Array(this.memory.buffer, this.normsAt, maxSlots);
    this.vectors = new Float32Array(0);
    this.grow(slots);
  }

  grow(slots: number): void {
    const pages = pagesFor(this.dim, slots, this.maxSlots);
    const have = this.memory.buffer.byteLength / PAGE;
    if (pages > have) allocate(() => this.memory.grow(pages - have));
    this.vectors = new Float32Array(this.memory.buffer, this.vectorsAt, slots * this.dim);
  }

  view(slots: number): Float32Array {
    // Made anew: the memory's buffer object can change after a grow, and a caller may compare it with `vectors.buffer`.
    return new Float32Array(this.memory.buffer, this.vectorsAt, slots * this.dim);
  }

  write(slot: number, vector: ArrayLike<number>): void {
    this.vectors.set(vector, slot * this.dim);
    const at = this.vectorsAt + slot * this.dim * 4;
    this.kernel(at, this.dim, 1, at, this.resultsAt);
    this.norms[slot] = Math.sqrt(this.results[0]);
  }

  norm(slot: number): number {
    return this.norms[slot];
  }

  dots(query: ArrayLike<number>, count: number, out: Float64Array, at: number, scale: CosineScale | null): void {
    const { dim, kernel, results, resultsAt } = this;
    this.query.set(query);
    const stride = dim * 4;
    for (let s = 0; s < count; s += RESULT_SLOTS) {
      const n = Math.min(RESULT_SLOTS, count - s);
      kernel(this.vectorsAt + s * stride, dim, n, 0, resultsAt);
      if (scale !== null) scale.largest = Math.max(scale.largest, this.cosines(resultsAt, this.normsAt + s * 8, n, scale.queryNorm));
      out.set(n === RESULT_SLOTS ? results : results.subarray(0, n), at + s);
    }
  }

  expectWrites(prefaulter: Prefaulter, from: number, to: number): void {
    const bytes = this.dim * 4;
    prefaulter.touch(this.memory, this.vectorsAt + from * bytes, this.vectorsAt + to * bytes);
  }
}

/** `n` rounded up to a whole number of `unit`s. */
const roundUp = (n: number, unit: number) => Math.ceil(n / unit) * unit;

/**
 * Where a WasmChunk of at most `maxSlots` slots keeps its results, norms and vectors, as byte
 * offsets. The norms' room is whole pages of 4,096 bytes, so the vectors sit at the same place in a
 * page and a cache line whatever the chunk's size: where the kernel was measured.
 */
function chunkLayout(dim: number, maxSlots: number): { resultsAt: number; normsAt: number; vectorsAt: number } {
  const resultsAt = roundUp(dim * 4, 16);
  const normsAt = resultsAt + RESULT_SLOTS * 8;
  return { resultsAt, normsAt, vectorsAt: normsAt + roundUp(maxSlots * 8, 4096) };
}

/** Bytes of a WasmChunk of `slots` slots that can grow to `maxSlots`: up to its vectors, the vectors, and the room the kernel reads past them. */
export function wasmChunkBytes(dim: number, slots: number, maxSlots: number): number {
  return chunkLayout(dim, maxSlots).vectorsAt + slots * dim * 4 + READ_AHEAD;
}

const pagesFor = (dim: number, slots: number, maxSlots: number) => Math.ceil(wasmChunkBytes(dim, slots, maxSlots) / PAGE);
