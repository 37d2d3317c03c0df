/**
 * One-pass floors for the embedding figures: the cheapest possible read of the same
 * Float32Array that the dot products read. A plain JS sum is the floor for a JS loop; a SIMD sum
 * approaches the memory-bandwidth floor that no exact kernel can beat. The SIMD sum is the
 * fastest found: four streams, each a quarter of the values, each reading one word 512 bytes
 * ahead of every 64 it adds, as the kernel reads ahead. Over 2.6M × 384 it read in 0.92–0.93 of
 * the time of two streams without reading ahead, and that in 0.82–0.85 of one stream's. Two
 * streams reading ahead were as fast (0.93); eight streams were slower (0.99–1.00). The kernel
 * reads eight streams (see memory/vector/simd-dots.ts), which is faster for it; so a floor that
 * read as it does would be no floor.
 */
import * as wasm from "../shared/wasm-encoding.js";

export function plainSum(values: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum;
}

/** The sum's streams, and how far ahead of each it reads (as the kernel's READ_AHEAD). */
const STREAMS = 4;
const READ_AHEAD = 512;

// sum(ptr, part) → [f64, i32]: STREAMS runs of `part` floats one after another from ptr, read
// together, sixteen of each a turn into four f32x4 accumulators, and one word READ_AHEAD bytes
// past each turn's 64 bytes, read and returned combined beside the sum (so the compiler keeps the
// reads); `part` is a multiple of 16 and ptr 16-byte aligned. The memory must reach READ_AHEAD
// bytes past the last run.
function sumModuleBytes(): Uint8Array<ArrayBuffer> {
  const [PTR, PART, STOP, AHEAD] = [0, 1, 2, 3];
  const P = Array.from({ length: STREAMS }, (_, t) => 4 + t);
  const A0 = 4 + STREAMS;
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const { get, set } = wasm;
  // p_t = ptr + t·part·4; the first stream stops where the second starts
  P.forEach((p, t) => emit(get(PTR), get(PART), wasm.i32(4 * t), [wasm.I32_MUL, wasm.I32_ADD], set(p)));
  emit(get(PTR), get(PART), wasm.i32(4), [wasm.I32_MUL, wasm.I32_ADD], set(STOP));
  for (let k = 0; k < 4; k++) emit(wasm.v128Zero(), set(A0 + k));
  emit([wasm.BLOCK, wasm.VOID, wasm.LOOP, wasm.VOID], get(P[0]), get(STOP), [wasm.I32_GE_U, wasm.BR_IF, 1]);
  for (const p of P) {
    for (let k = 0; k < 4; k++) emit(get(A0 + k), get(p), wasm.simd(wasm.V128_LOAD, ...wasm.memarg(4, 16 * k)), wasm.simd(wasm.F32X4_ADD), set(A0 + k));
    emit(get(AHEAD), get(p), [wasm.I32_LOAD], wasm.memarg(2, READ_AHEAD), [wasm.I32_XOR], set(AHEAD));
  }
  for (const p of P) emit(get(p), wasm.i32(64), [wasm.I32_ADD], set(p));
  emit([wasm.BR, 0, wasm.END, wasm.END]);
  // Lanes of (a0 + a1) + (a2 + a3), widened and added; then the words read ahead.
  emit(get(A0), get(A0 + 1), wasm.simd(wasm.F32X4_ADD), get(A0 + 2), get(A0 + 3), wasm.simd(wasm.F32X4_ADD), wasm.simd(wasm.F32X4_ADD), set(A0));
  for (let lane = 0; lane < 4; lane++) {
    emit(get(A0), wasm.simd(wasm.F32X4_EXTRACT_LANE, lane), [wasm.F64_PROMOTE_F32]);
    if (lane > 0) emit([wasm.F64_ADD]);
  }
  emit(get(AHEAD));
  return wasm.oneFunctionModule({ name: "sum", params: [wasm.I32, wasm.I32], results: [wasm.F64, wasm.I32], locals: [[2 + STREAMS, wasm.I32], [4, wasm.V128]], code });
}

/** The sum module, compiled once. */
const summer = wasm.compiledOnce<(ptr: number, part: number) => [number, number]>("sum", sumModuleBytes);

/**
 * A SIMD summer over views into `memory` (as the chunks of large embedding columns are): STREAMS
 * equal parts of a whole multiple of sixteen floats each in SIMD, any rest in JS. The memory must
 * reach 512 bytes past the view, as a chunk's does. Null where the runtime has no SIMD.
 */
export function simdSummer(memory: WebAssembly.Memory): ((values: Float32Array) => number) | null {
  const sum = summer.bind(memory);
  if (sum === null) return null;
  return (values) => {
    if (values.buffer !== memory.buffer || values.byteOffset % 16 !== 0) {
      throw new Error("simdSummer: values must be a 16-aligned view of the memory");
    }
    const part = 16 * Math.floor(values.length / (16 * STREAMS));
    return sum(values.byteOffset, part)[0] + plainSum(values.subarray(STREAMS * part));
  };
}

/** A view of vectors, with the WebAssembly memory holding it when there is one (as the store lends its chunks). */
export interface FloorChunk {
  readonly vectors: Float32Array;
  readonly wasmMemory: WebAssembly.Memory | null;
}

/**
 * One pass over every chunk, in order, as the dot products make it: a SIMD sum over a chunk in
 * wasm memory, a plain JS sum otherwise. The summers are made here, before any timing.
 */
export function onePass(chunks: readonly FloorChunk[]): () => number {
  const summers = chunks.map(({ vectors, wasmMemory }) => {
    const summer = (wasmMemory === null ? null : simdSummer(wasmMemory)) ?? plainSum;
    return () => summer(vectors);
  });
  return () => {
    let sum = 0;
    for (const summer of summers) sum += summer();
    return sum;
  };
}
