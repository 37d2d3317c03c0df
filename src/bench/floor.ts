/**
 * One-pass floors for the embedding figures: the cheapest possible read of the same
 * Float32Array that the dot products read. A plain JS sum is the floor for a JS loop; a SIMD sum
 * (four f32x4 accumulators) approaches the memory-bandwidth floor that no exact kernel can beat.
 */
import * as wasm from "../shared/wasm-encoding.js";

export function plainSum(values: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum;
}

// sum(ptr, floats) → f64: sixteen floats a turn into four f32x4 accumulators; `floats` is a
// multiple of 16 and ptr 16-byte aligned.
function sumModuleBytes(): Uint8Array<ArrayBuffer> {
  const [PTR, FLOATS, STOP, A0] = [0, 1, 2, 3];
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(wasm.get(PTR), wasm.get(FLOATS), wasm.i32(4), [wasm.I32_MUL, wasm.I32_ADD], wasm.set(STOP)); // stop = ptr + floats·4
  for (let k = 0; k < 4; k++) emit(wasm.simd(wasm.V128_CONST, ...new Array(16).fill(0)), wasm.set(A0 + k));
  emit([wasm.BLOCK, wasm.VOID, wasm.LOOP, wasm.VOID], wasm.get(PTR), wasm.get(STOP), [wasm.I32_GE_U, wasm.BR_IF, 1]);
  for (let k = 0; k < 4; k++) emit(wasm.get(A0 + k), wasm.get(PTR), wasm.simd(wasm.V128_LOAD, ...wasm.memarg(4, 16 * k)), wasm.simd(wasm.F32X4_ADD), wasm.set(A0 + k));
  emit(wasm.get(PTR), wasm.i32(64), [wasm.I32_ADD], wasm.set(PTR), [wasm.BR, 0, wasm.END, wasm.END]);
  // Lanes of (a0 + a1) + (a2 + a3), widened and added.
  emit(wasm.get(A0), wasm.get(A0 + 1), wasm.simd(wasm.F32X4_ADD), wasm.get(A0 + 2), wasm.get(A0 + 3), wasm.simd(wasm.F32X4_ADD), wasm.simd(wasm.F32X4_ADD), wasm.set(A0));
  for (let lane = 0; lane < 4; lane++) {
    emit(wasm.get(A0), wasm.simd(wasm.F32X4_EXTRACT_LANE, lane), [wasm.F64_PROMOTE_F32]);
    if (lane > 0) emit([wasm.F64_ADD]);
  }
  return wasm.oneFunctionModule({ name: "sum", params: [wasm.I32, wasm.I32], results: [wasm.F64], locals: [[1, wasm.I32], [4, wasm.V128]], code });
}

/** The sum module, compiled once. */
const summer = wasm.compiledOnce<(ptr: number, floats: number) => number>("sum", sumModuleBytes);

/**
 * A SIMD summer over views into `memory` (as the chunks of large embedding columns are): the
 * whole multiples of sixteen floats in SIMD, any rest in JS. Null where the runtime has no SIMD.
 */
export function simdSummer(memory: WebAssembly.Memory): ((values: Float32Array) => number) | null {
  const sum = summer.bind(memory);
  if (sum === null) return null;
  return (values) => {
    if (values.buffer !== memory.buffer || values.byteOffset % 16 !== 0) {
      throw new Error("simdSummer: values must be a 16-aligned view of the memory");
    }
    const whole = values.length - (values.length % 16);
    return sum(values.byteOffset, whole) + plainSum(values.subarray(whole));
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
