/**
 * A WebAssembly SIMD pass that turns a block of products into cosines in place, two at a time,
 * exactly as cosineOf (lanes.ts) does one at a time: each product divided by the query's norm
 * times the vector's, and 0 where the vector's norm is 0. Float64 division rounds the same in
 * either, so the cosines equal the plain-JS path's bit for bit.
 *
 * It runs on a block of products the dot kernel has just written, still in cache. Two divisions
 * an instruction halve what a JS loop over the same block costs; making the cosine inside the dot
 * kernel, a division at the end of each vector's sum, was slower (see simd-dots.ts).
 *
 * Export `cosines(products, norms, count, queryNorm)`: `count` float64 products at `products`
 * and their vectors' float64 norms at `norms`, both byte offsets into the imported memory,
 * 16-byte aligned. It reads and writes whole pairs: with an odd count, one value past the last.
 */
import * as wasm from "../../shared/wasm-encoding.js";

const [PRODUCTS, NORMS, COUNT, QUERY_NORM] = [0, 1, 2, 3];
const [STOP, QUERY_NORMS, PAIR_NORMS] = [4, 5, 6];

function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => {
    for (const part of parts) code.push(...part);
  };
  // stop = products + count·8; the query's norm in both lanes
  emit(wasm.get(PRODUCTS), wasm.get(COUNT), wasm.i32(3), [wasm.I32_SHL, wasm.I32_ADD], wasm.set(STOP));
  emit(wasm.get(QUERY_NORM), wasm.simd(wasm.F64X2_SPLAT), wasm.set(QUERY_NORMS));
  emit([wasm.BLOCK, wasm.VOID, wasm.LOOP, wasm.VOID], wasm.get(PRODUCTS), wasm.get(STOP), [wasm.I32_GE_U, wasm.BR_IF, 1]);
  emit(wasm.get(NORMS), wasm.simd(wasm.V128_LOAD, ...wasm.memarg(4, 0)), wasm.set(PAIR_NORMS));
  // products[0, 1] = (products / (queryNorm · norms)) with the lanes whose norm is 0 cleared
  emit(wasm.get(PRODUCTS));
  emit(wasm.get(PRODUCTS), wasm.simd(wasm.V128_LOAD, ...wasm.memarg(4, 0)), wasm.get(QUERY_NORMS), wasm.get(PAIR_NORMS), wasm.simd(wasm.F64X2_MUL), wasm.simd(wasm.F64X2_DIV));
  emit(wasm.get(PAIR_NORMS), wasm.simd(wasm.V128_CONST, ...new Array(16).fill(0)), wasm.simd(wasm.F64X2_EQ), wasm.simd(wasm.V128_ANDNOT));
  emit(wasm.simd(wasm.V128_STORE, ...wasm.memarg(4, 0)));
  emit(wasm.get(PRODUCTS), wasm.i32(16), [wasm.I32_ADD], wasm.set(PRODUCTS), wasm.get(NORMS), wasm.i32(16), [wasm.I32_ADD], wasm.set(NORMS), [wasm.BR, 0, wasm.END, wasm.END]);
  return code;
}

/** The pass's module bytes. */
export function simdCosinesModuleBytes(): Uint8Array<ArrayBuffer> {
  return wasm.oneFunctionModule({
    name: "cosines",
    params: [wasm.I32, wasm.I32, wasm.I32, wasm.F64],
    results: [],
    locals: [
      [1, wasm.I32],
      [2, wasm.V128],
    ],
    code: body(),
  });
}

export type CosinesKernel = (products: number, norms: number, count: number, queryNorm: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The pass bound to `memory`, or null where this runtime lacks WebAssembly SIMD. Compiled once. */
export function instantiateCosines(memory: WebAssembly.Memory): CosinesKernel | null {
  if (compiled === undefined) {
    const bytes = simdCosinesModuleBytes();
    compiled = typeof WebAssembly === "object" && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  }
  if (compiled === null) return null;
  return new WebAssembly.Instance(compiled, { env: { memory } }).exports.cosines as CosinesKernel;
}
