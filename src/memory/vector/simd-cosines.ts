/**
 * A WebAssembly SIMD pass that turns a block of products into cosines in place, two at a time,
 * exactly as cosineOf (lanes.ts) does one at a time: each product divided by the query's norm
 * times the vector's, and 0 where the vector's norm is 0. Float64 division rounds the same in
 * either, so the cosines equal the plain-JS path's bit for bit. It also gives the largest of them,
 * which ranking takes as a bound on every memory's relevance: NaN when any cosine is NaN, as
 * Math.max gives, though between a 0 and a -0 either may come out (equal as bounds). The largest
 * is kept with pmax, one instruction, beside a mask that catches NaN: f64x2.max, whose NaN and
 * zero rules take several, made the pass about four times slower (2.3 against 0.5 ns a cosine
 * over a block in cache).
 *
 * It runs on a block of products the dot kernel has just written, still in cache. Two divisions
 * an instruction halve what a JS loop over the same block costs; making the cosine inside the dot
 * kernel, a division at the end of each vector's sum, was slower (see simd-dots.ts).
 *
 * Export `cosines(products, norms, count, queryNorm) → largest`: `count` float64 products at
 * `products` and their vectors' float64 norms at `norms`, both byte offsets into the imported
 * memory, 16-byte aligned; pairs in SIMD, an odd count's last one alone.
 */
import * as wasm from "../../shared/wasm-encoding.js";

const [PRODUCTS, NORMS, COUNT, QUERY_NORM] = [0, 1, 2, 3];
const [STOP, PAIRS_STOP, QUERY_NORMS, PAIR_NORMS, PAIR, BEST, NANS, LARGEST, NORM, COSINE] = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => {
    for (const part of parts) code.push(...part);
  };
  const { get, set, simd, i32, f64, memarg } = wasm;
  // stop = products + count·8, pairsStop = products + (count & ~1)·8; the query's norm in both lanes
  emit(get(PRODUCTS), get(COUNT), i32(3), [wasm.I32_SHL, wasm.I32_ADD], set(STOP));
  emit(get(PRODUCTS), get(COUNT), i32(-2), [wasm.I32_AND], i32(3), [wasm.I32_SHL, wasm.I32_ADD], set(PAIRS_STOP));
  emit(get(QUERY_NORM), simd(wasm.F64X2_SPLAT), set(QUERY_NORMS));
  emit(f64(Number.NEGATIVE_INFINITY), simd(wasm.F64X2_SPLAT), set(BEST));
  emit(wasm.v128Zero(), set(NANS));
  emit([wasm.BLOCK, wasm.VOID, wasm.LOOP, wasm.VOID], get(PRODUCTS), get(PAIRS_STOP), [wasm.I32_GE_U, wasm.BR_IF, 1]);
  emit(get(NORMS), simd(wasm.V128_LOAD, ...memarg(4, 0)), set(PAIR_NORMS));
  // pair = (products / (queryNorm · norms)) with the lanes whose norm is 0 cleared
  emit(get(PRODUCTS), simd(wasm.V128_LOAD, ...memarg(4, 0)), get(QUERY_NORMS), get(PAIR_NORMS), simd(wasm.F64X2_MUL), simd(wasm.F64X2_DIV));
  emit(get(PAIR_NORMS), wasm.v128Zero(), simd(wasm.F64X2_EQ), simd(wasm.V128_ANDNOT), set(PAIR));
  emit(get(PRODUCTS), get(PAIR), simd(wasm.V128_STORE, ...memarg(4, 0)));
  // best = pmax(best, pair), one instruction that passes NaN over; a lane that is NaN is marked in nans.
  emit(get(BEST), get(PAIR), simd(wasm.F64X2_PMAX), set(BEST));
  emit(get(NANS), get(PAIR), get(PAIR), simd(wasm.F64X2_NE), simd(wasm.V128_OR), set(NANS));
  emit(get(PRODUCTS), i32(16), [wasm.I32_ADD], set(PRODUCTS), get(NORMS), i32(16), [wasm.I32_ADD], set(NORMS), [wasm.BR, 0, wasm.END, wasm.END]);
  emit(get(BEST), simd(wasm.F64X2_EXTRACT_LANE, 0), get(BEST), simd(wasm.F64X2_EXTRACT_LANE, 1), [wasm.F64_MAX], set(LARGEST));
  // An odd count's last product: cosine = norm == 0 ? 0 : product / (queryNorm · norm)
  emit(get(PRODUCTS), get(STOP), [wasm.I32_LT_U, wasm.IF, wasm.VOID]);
  emit(get(NORMS), [wasm.F64_LOAD], memarg(3, 0), set(NORM));
  emit(f64(0), get(PRODUCTS), [wasm.F64_LOAD], memarg(3, 0), get(QUERY_NORM), get(NORM), [wasm.F64_MUL, wasm.F64_DIV]);
  emit(get(NORM), f64(0), [wasm.F64_EQ, wasm.SELECT], set(COSINE));
  emit(get(PRODUCTS), get(COSINE), [wasm.F64_STORE], memarg(3, 0));
  emit(get(LARGEST), get(COSINE), [wasm.F64_MAX], set(LARGEST), [wasm.END]);
  // NaN when any pair held one, else the largest
  emit(f64(Number.NaN), get(LARGEST), get(NANS), simd(wasm.V128_ANY_TRUE), [wasm.SELECT]);
  return code;
}

/** The pass's module bytes. */
export function simdCosinesModuleBytes(): Uint8Array<ArrayBuffer> {
  return wasm.oneFunctionModule({
    name: "cosines",
    params: [wasm.I32, wasm.I32, wasm.I32, wasm.F64],
    results: [wasm.F64],
    locals: [
      [2, wasm.I32],
      [5, wasm.V128],
      [3, wasm.F64],
    ],
    code: body(),
  });
}

export type CosinesKernel = (products: number, norms: number, count: number, queryNorm: number) => number;

const pass = wasm.compiledOnce<CosinesKernel>("cosines", simdCosinesModuleBytes);

/** The pass bound to `memory`, or null where this runtime lacks WebAssembly SIMD. Compiled once. */
export function instantiateCosines(memory: WebAssembly.Memory): CosinesKernel | null {
  return pass.bind(memory);
}
