/**
 * A column of fixed-dimension float32 vectors, one per slot, in one contiguous block, with bulk
 * dot products against a query. Small columns live in a plain Float32Array and use the JS loop;
 * once a column reaches SIMD_MIN_FLOATS it moves into a WebAssembly memory so the SIMD kernel can
 * read it in place (copying a large column per query would cost more than the products). Both
 * paths compute `dotLanes`, so which one runs never changes a result.
 */
import { dotLanes } from "./lanes.js";
import type { Prefaulter } from "./prefault.js";
import { type DotsKernel, instantiateDots } from "./simd-dots.js";
import { MAX_PAGES, sharedMemory } from "../../shared/wasm-encoding.js";

/** Below this many floats the JS loop is fast enough and a wasm memory is not worth its setup. */
export const SIMD_MIN_FLOATS = 1 << 18;

const PAGE = 65_536;

export interface VectorColumnOptions {
  /** Lets tests force either path; the default chooses by size. */
  simd?: "auto" | "never" | "always";
  /** Faults in the pages of the slots expected next (see expectWrites); none when absent. */
  prefaulter?: Prefaulter;
}

interface WasmBacking {
  memory: WebAssembly.Memory;
  dots: DotsKernel;
  /** Byte offset of the query (float32 × dim); vectors start right after it. */
  queryAt: number;
  vectorsAt: number;
}

export class VectorColumn {
  /** The vectors, slot × dim; a view into wasm memory once the column is large. */
  data: Float32Array;
  private wasm: WasmBacking | null = null;
  private float64View: Float64Array | null = null;
  private capacity: number;
  private readonly simd: "auto" | "never" | "always";
  private readonly prefaulter: Prefaulter | null;

  constructor(
    readonly dim: number,
    capacity: number,
    options: VectorColumnOptions = {},
  ) {
    this.capacity = capacity;
    this.simd = options.simd ?? "auto";
    this.prefaulter = options.prefaulter ?? null;
    this.data = new Float32Array(capacity * dim);
    if (this.wantsSimd(capacity)) this.moveToWasm(capacity);
  }

  /** Whether the SIMD kernel serves this column's queries. */
  get usesSimd(): boolean {
    return this.wasm !== null;
  }

  /** The wasm memory holding the column, when it is large enough to live there. */
  get wasmMemory(): WebAssembly.Memory | null {
    return this.wasm?.memory ?? null;
  }

  set(slot: number, vector: ArrayLike<number>): void {
    this.data.set(vector, slot * this.dim);
  }

  /**
   * Says that slots [from, to) are likely to be written next, so that their pages can be faulted
   * in before then, within the capacity. Only a wasm column is worth it: a JS one is small.
   */
  expectWrites(from: number, to: number): void {
    if (this.wasm === null || this.prefaulter === null) return;
    const bytes = this.dim * 4;
    const end = Math.min(to, this.capacity);
    this.prefaulter.touch(this.wasm.memory, this.wasm.vectorsAt + from * bytes, this.wasm.vectorsAt + end * bytes);
  }

  /** Grows to `capacity` slots, keeping every vector. */
  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    if (this.wasm === null && this.wantsSimd(capacity)) {
      this.moveToWasm(capacity);
    } else if (this.wasm !== null) {
      this.ensureWasmBytes(capacity);
      this.data = new Float32Array(this.wasm.memory.buffer, this.wasm.vectorsAt, capacity * this.dim);
    } else {
      const next = new Float32Array(capacity * this.dim);
      next.set(this.data);
      this.data = next;
    }
    this.capacity = capacity;
  }

  /** Sum of squares of one slot's vector, in the same lanes as the products (the kernel's, once there). */
  squaredNorm(slot: number): number {
    const dim = this.dim;
    if (this.wasm === null) return dotLanes(this.data, slot * dim, this.data, slot * dim, dim);
    const { dots, vectorsAt } = this.wasm;
    const at = vectorsAt + slot * dim * 4;
    const outAt = resultsAt(vectorsAt, this.capacity, dim);
    dots(at, dim, 1, at, outAt);
    return this.wasmFloat64()[outAt / 8];
  }

  /**
   * `dotLanes(query, vector[slot])` for slots 0…count-1. The result may be a view into wasm
   * memory: read it before the next call or write.
   */
  dots(query: ArrayLike<number>, count: number): Float64Array {
    const dim = this.dim;
    if (this.wasm === null) {
      const out = new Float64Array(count);
      for (let slot = 0; slot < count; slot++) out[slot] = dotLanes(query, 0, this.data, slot * dim, dim);
      return out;
    }
    const { memory, dots, queryAt, vectorsAt } = this.wasm;
    const outAt = resultsAt(vectorsAt, this.capacity, dim);
    const buffer = memory.buffer;
    new Float32Array(buffer, queryAt, dim).set(query);
    dots(vectorsAt, dim, count, queryAt, outAt);
    return new Float64Array(buffer, outAt, count);
  }

  /**
   * All of wasm memory as float64, made again only when the memory grew: making a view per call
   * costs more than the kernel's product of one vector with itself.
   */
  private wasmFloat64(): Float64Array {
    const { memory } = this.wasm as WasmBacking;
    if (this.float64View?.buffer !== memory.buffer) this.float64View = new Float64Array(memory.buffer);
    return this.float64View;
  }

  private wantsSimd(capacity: number): boolean {
    if (this.simd === "never") return false;
    if (this.simd === "auto" && capacity * this.dim < SIMD_MIN_FLOATS) return false;
    return wasmBytesFor(vectorsOffset(this.dim), capacity, this.dim) <= MAX_PAGES * PAGE;
  }

  private moveToWasm(capacity: number): void {
    const queryAt = 0;
    const vectorsAt = vectorsOffset(this.dim);
    const memory = sharedMemory(1);
    const dots = instantiateDots(memory);
    if (dots === null) return; // no SIMD here: stay on the JS path
    this.wasm = { memory, dots, queryAt, vectorsAt };
    this.ensureWasmBytes(capacity);
    const data = new Float32Array(memory.buffer, vectorsAt, capacity * this.dim);
    data.set(this.data);
    this.data = data;
  }

  private ensureWasmBytes(capacity: number): void {
    const { memory, vectorsAt } = this.wasm as WasmBacking;
    const needed = wasmBytesFor(vectorsAt, capacity, this.dim);
    if (needed > MAX_PAGES * PAGE) {
      throw new Error(`an embedding column of ${capacity} × ${this.dim} floats exceeds 4 GiB`);
    }
    const pages = Math.ceil(needed / PAGE);
    const have = memory.buffer.byteLength / PAGE;
    if (pages > have) memory.grow(pages - have);
  }
}

const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** The vectors follow the query (float32 × dim), on a 16-byte boundary. */
const vectorsOffset = (dim: number) => align16(dim * 4);

/** Results follow the vectors, aligned for float64 (capacity × dim floats can be odd). */
const resultsAt = (vectorsAt: number, capacity: number, dim: number) => align16(vectorsAt + capacity * dim * 4);

/** Query, then vectors, then one float64 result per slot. */
function wasmBytesFor(vectorsAt: number, capacity: number, dim: number): number {
  return resultsAt(vectorsAt, capacity, dim) + capacity * 8;
}
