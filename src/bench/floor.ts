/**
 * One-pass floors for the embedding figures: the cheapest possible read of the same
 * Float32Array that the dot products read. A plain JS sum is the floor for a JS loop; a SIMD sum
 * (four f32x4 accumulators) approaches the memory-bandwidth floor that no exact kernel can beat.
 */
import { F64, I32, name, section, sharedMemoryImport, simd, sleb, uleb, V128, vec, WASM_HEADER } from "../shared/wasm-encoding.js";

export function plainSum(values: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum;
}

// sum(ptr, floats) → f64: sixteen floats a turn into four f32x4 accumulators; `floats` is a
// multiple of 16 and ptr 16-byte aligned.
function sumModuleBytes(): Uint8Array<ArrayBuffer> {
  const [PTR, FLOATS, END, A0] = [0, 1, 2, 3];
  const get = (l: number) => [0x20, ...uleb(l)];
  const set = (l: number) => [0x21, ...uleb(l)];
  const i32 = (n: number) => [0x41, ...sleb(n)];
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(PTR), get(FLOATS), i32(4), [0x6c, 0x6a], set(END)); // end = ptr + floats·4
  for (let k = 0; k < 4; k++) emit(simd(0x0c, ...new Array(16).fill(0)), set(A0 + k));
  emit([0x02, 0x40, 0x03, 0x40], get(PTR), get(END), [0x4f, 0x0d, 1]); // block loop; br_if ptr ≥ end
  for (let k = 0; k < 4; k++) emit(get(A0 + k), get(PTR), simd(0x00, 4, 16 * k), simd(0xe4), set(A0 + k)); // f32x4.add
  emit(get(PTR), i32(64), [0x6a], set(PTR), [0x0c, 0, 0x0b, 0x0b]);
  // Lanes of (a0 + a1) + (a2 + a3), widened and added.
  emit(get(A0), get(A0 + 1), simd(0xe4), get(A0 + 2), get(A0 + 3), simd(0xe4), simd(0xe4), set(A0));
  for (let lane = 0; lane < 4; lane++) {
    emit(get(A0), simd(0x1f, lane), [0xbb]); // f32x4.extract_lane, f64.promote_f32
    if (lane > 0) emit([0xa0]);
  }
  const locals = vec([[...uleb(1), I32], [...uleb(4), V128]]);
  const fn = [...locals, ...code, 0x0b];
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, vec([[0x60, ...vec([[I32], [I32]]), ...vec([[F64]])]])),
    ...section(2, vec([sharedMemoryImport()])),
    ...section(3, vec([[0x00]])),
    ...section(7, vec([[...name("sum"), 0x00, 0x00]])),
    ...section(10, vec([[...uleb(fn.length), ...fn]])),
  ]);
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
