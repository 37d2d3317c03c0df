/**
 * A column of fixed-dimension float32 vectors, one per slot, with bulk dot products against a
 * query. The slots are split into chunks of `chunkSlots` each, every chunk a block of its own, so
 * a column is bounded by the machine's memory rather than by one block's (a 32-bit WebAssembly
 * memory holds 4 GiB at most), and growing adds chunks or grows the last one, never copying the
 * column. Small columns keep their chunks in plain Float32Arrays and use the JS loop; once a
 * column reaches SIMD_MIN_FLOATS its chunks move into WebAssembly memories so the SIMD kernel can
 * read them in place (copying a large column per query would cost more than the products). Both
 * paths compute `dotLanes`, so neither the path nor the chunking ever changes a result.
 */
import { type Chunk, type CosineScale, JsChunk, OutOfMemory, WasmChunk, wasmChunkBytes } from "./chunk.js";
import type { Prefaulter } from "./prefault.js";
import { hasSimd } from "./simd-dots.js";
import { MAX_PAGES } from "../../shared/wasm-encoding.js";

/** Below this many floats the JS loop is fast enough and a wasm memory is not worth its setup. */
export const SIMD_MIN_FLOATS = 1 << 18;

/**
 * Bytes of vectors in one chunk by default: far below the 4 GiB a wasm memory can hold, so that
 * the last chunk's unfilled room is small beside the column, and far above what makes a per-chunk
 * call cost anything.
 */
export const CHUNK_BYTES = 1 << 30;

export interface VectorColumnOptions {
  /** Lets tests force either path; the default chooses by size. */
  simd?: "auto" | "never" | "always";
  /** Faults in the pages of the slots expected next (see expectWrites); none when absent. */
  prefaulter?: Prefaulter;
  /** Slots per chunk; by default as many as fill CHUNK_BYTES. Tests set it low to get many chunks. */
  chunkSlots?: number;
}

/** One chunk's vectors, as `chunks` lends them. */
export interface VectorChunk {
  /** The vectors of the chunk's slots, slot × dim. */
  readonly vectors: Float32Array;
  /** The WebAssembly memory holding `vectors`, or null when plain JavaScript reads them. */
  readonly wasmMemory: WebAssembly.Memory | null;
}

export class VectorColumn {
  readonly chunkSlots: number;
  private chunks: Chunk[] = [];
  private capacity = 0;
  /** Whether the chunks live in wasm memory (all of them do, or none). */
  private inWasm = false;
  private readonly simd: "auto" | "never" | "always";
  private readonly prefaulter: Prefaulter | null;

  constructor(
    readonly dim: number,
    capacity: number,
    options: VectorColumnOptions = {},
  ) {
    this.simd = options.simd ?? "auto";
    this.prefaulter = options.prefaulter ?? null;
    this.chunkSlots = options.chunkSlots ?? Math.max(1, Math.floor(CHUNK_BYTES / (dim * 4)));
    if (!Number.isSafeInteger(this.chunkSlots) || this.chunkSlots < 1 || wasmChunkBytes(dim, this.chunkSlots, this.chunkSlots) > MAX_PAGES * 65_536) {
      throw new Error(`a vector column's chunks must hold a whole number of slots, at least 1, within 4 GiB (got ${this.chunkSlots} slots of ${dim} floats)`);
    }
    this.grow(Math.max(capacity, 1));
  }

  /** Whether the SIMD kernel serves this column's queries. */
  get usesSimd(): boolean {
    return this.inWasm;
  }

  /** How many chunks hold the column's capacity. */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** Writes the vector of `slot`, and keeps its norm. */
  set(slot: number, vector: ArrayLike<number>): void {
    const c = Math.floor(slot / this.chunkSlots);
    this.chunks[c].write(slot - c * this.chunkSlots, vector);
  }

  /**
   * The norm of `slot`'s vector, summed in the same lanes as every product (so cosines match
   * relevanceScore); 0 for a slot never written.
   */
  norm(slot: number): number {
    const c = Math.floor(slot / this.chunkSlots);
    return this.chunks[c].norm(slot - c * this.chunkSlots);
  }

  /** The vector of `slot`: a view, valid until the column grows. */
  vector(slot: number): Float32Array {
    const c = Math.floor(slot / this.chunkSlots);
    const at = (slot - c * this.chunkSlots) * this.dim;
    return this.chunks[c].vectors.subarray(at, at + this.dim);
  }

  /** The vectors of slots 0…count-1, slot × dim, copied out of their chunks into one array. */
  copy(count: number): Float32Array {
    const out = new Float32Array(count * this.dim);
    for (const [c, chunk] of this.chunksOf(count).entries()) out.set(chunk.vectors, c * this.chunkSlots * this.dim);
    return out;
  }

  /**
   * The chunks holding slots 0…count-1, in slot order, each with views of just those slots: what
   * one pass over the column reads (see the bench's floor). Valid until the column grows.
   */
  chunksOf(count: number): VectorChunk[] {
    const out: VectorChunk[] = [];
    for (let c = 0; c < this.chunks.length && c * this.chunkSlots < count; c++) {
      const slots = Math.min(this.chunkSlots, count - c * this.chunkSlots);
      const chunk = this.chunks[c];
      out.push({ vectors: chunk.view(slots), wasmMemory: chunk.memory });
    }
    return out;
  }

  /**
   * Says that slots [from, to) are likely to be written next, so that their pages can be faulted
   * in before then, chunk by chunk, within the capacity. Only wasm chunks are worth it: JS ones are small.
   */
  expectWrites(from: number, to: number): void {
    if (this.prefaulter === null) return;
    const end = Math.min(to, this.capacity);
    for (let c = Math.floor(from / this.chunkSlots); c * this.chunkSlots < end; c++) {
      const first = c * this.chunkSlots;
      this.chunks[c].expectWrites(this.prefaulter, Math.max(from, first) - first, Math.min(end - first, this.chunkSlots));
    }
  }

  /**
   * Grows to `capacity` slots, keeping every vector: it grows the last chunk and adds chunks. A
   * column that reaches SIMD_MIN_FLOATS moves its (then small) chunks into wasm memory.
   */
  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    try {
      if (!this.inWasm && this.wantsSimd(capacity)) this.moveToWasm();
      const last = this.chunks.length - 1;
      if (last >= 0 && this.capacity < (last + 1) * this.chunkSlots) {
        const slots = Math.min(this.chunkSlots, capacity - last * this.chunkSlots);
        this.chunks[last].grow(slots);
        this.capacity = last * this.chunkSlots + slots;
      }
      while (this.capacity < capacity) {
        const slots = Math.min(this.chunkSlots, capacity - this.capacity);
        this.chunks.push(this.newChunk(slots));
        this.capacity += slots;
      }
    } catch (error) {
      if (!(error instanceof OutOfMemory)) throw error;
      const gib = ((capacity * this.dim * 4) / 2 ** 30).toFixed(2);
      throw new Error(
        `an embedding column of ${capacity} × ${this.dim} floats (${gib} GiB) needs more memory than this process can get: ${error.message}`,
        { cause: error },
      );
    }
  }

  /** `dotLanes(query, vector[slot])` for slots 0…count-1, written to out[slot] (a new array when none is given). */
  dots(query: ArrayLike<number>, count: number, out: Float64Array = new Float64Array(count)): Float64Array {
    return this.eachChunk(query, count, out, null);
  }

  /**
   * `cosineOf(dotLanes(query, vector[slot]), queryNorm, norm(slot))` for slots 0…count-1, written
   * to out[slot]: the products made into cosines as they come, in one pass. Returns the largest
   * of them (NaN when any is NaN, -Infinity when there are none).
   */
  cosines(query: ArrayLike<number>, queryNorm: number, count: number, out: Float64Array): number {
    const scale = { queryNorm, largest: Number.NEGATIVE_INFINITY };
    this.eachChunk(query, count, out, scale);
    return scale.largest;
  }

  /** Each chunk's products for the slots below `count`, which is within the capacity (as every slot asked for must be). */
  private eachChunk(query: ArrayLike<number>, count: number, out: Float64Array, scale: CosineScale | null): Float64Array {
    for (let c = 0; c * this.chunkSlots < count; c++) {
      const first = c * this.chunkSlots;
      this.chunks[c].dots(query, Math.min(this.chunkSlots, count - first), out, first, scale);
    }
    return out;
  }

  private wantsSimd(capacity: number): boolean {
    if (this.simd === "never" || !hasSimd()) return false;
    return this.simd === "always" || capacity * this.dim >= SIMD_MIN_FLOATS;
  }

  private newChunk(slots: number): Chunk {
    return this.inWasm ? new WasmChunk(this.dim, slots, this.chunkSlots) : new JsChunk(this.dim, slots);
  }

  /** Writes each JS chunk's vectors into a wasm chunk of the same slots: done once, while the column is small. */
  private moveToWasm(): void {
    const { dim } = this;
    this.chunks = this.chunks.map((chunk) => {
      const slots = chunk.vectors.length / dim;
      const wasm = new WasmChunk(dim, slots, this.chunkSlots);
      for (let slot = 0; slot < slots; slot++) wasm.write(slot, chunk.vectors.subarray(slot * dim, (slot + 1) * dim));
      return wasm;
    });
    this.inWasm = true;
  }
}
