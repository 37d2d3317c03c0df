/**
 * One-pass floors for the embedding figures: the cheapest possible read of the same
 * Float32Array that the dot products read. A plain JS sum is the floor for a JS loop; a SIMD sum
 * (four f32x4 accumulators) approaches the memory-bandwidth floor that no exact kernel can beat.
 */
import {
  BLOCK,
  BR,
  BR_IF,
  END,
  F32X4_ADD,
  F32X4_EXTRACT_LANE,
  F64,
  F64_ADD,
  F64_PROMOTE_F32,
  get,
  I32,
  i32,
  I32_ADD,
  I32_GE_U,
  I32_MUL,
  LOOP,
  memarg,
  oneFunctionModule,
  set,
  simd,
  V128,
  V128_CONST,
  V128_LOAD,
  VOID,
} from "../shared/wasm-encoding.js";

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
  emit(get(PTR), get(FLOATS), i32(4), [I32_MUL, I32_ADD], set(STOP)); // stop = ptr + floats·4
  for (let k = 0; k < 4; k++) emit(simd(V128_CONST, ...new Array(16).fill(0)), set(A0 + k));
  emit([BLOCK, VOID, LOOP, VOID], get(PTR), get(STOP), [I32_GE_U, BR_IF, 1]);
  for (let k = 0; k < 4; k++) emit(get(A0 + k), get(PTR), simd(V128_LOAD, ...memarg(4, 16 * k)), simd(F32X4_ADD), set(A0 + k));
  emit(get(PTR), i32(64), [I32_ADD], set(PTR), [BR, 0, END, END]);
  // Lanes of (a0 + a1) + (a2 + a3), widened and added.
  emit(get(A0), get(A0 + 1), simd(F32X4_ADD), get(A0 + 2), get(A0 + 3), simd(F32X4_ADD), simd(F32X4_ADD), set(A0));
  for (let lane = 0; lane < 4; lane++) {
    emit(get(A0), simd(F32X4_EXTRACT_LANE, lane), [F64_PROMOTE_F32]);
    if (lane > 0) emit([F64_ADD]);
  }
  return oneFunctionModule({ name: "sum", params: [I32, I32], results: [F64], locals: [[1, I32], [4, V128]], code });
}

/**
 * A SIMD summer over views into `memory` (as large embedding columns are), compiled once. Null
 * where the runtime has no SIMD.
 */
export function simdSummer(memory: WebAssembly.Memory): ((values: Float32Array) => number) | null {
  const bytes = sumModuleBytes();
  if (!WebAssembly.validate(bytes)) return null;
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
  const sum = instance.exports.sum as (ptr: number, floats: number) => number;
  return (values) => {
    if (values.buffer !== memory.buffer || values.byteOffset % 16 !== 0 || values.length % 16 !== 0) {
      throw new Error("simdSummer: values must be a 16-aligned view of the memory, a multiple of 16 long");
    }
    return sum(values.byteOffset, values.length);
  };
}
