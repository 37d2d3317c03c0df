/**
 * A WebAssembly SIMD kernel for many dot products against one query, assembled here from its
 * opcodes (a few hundred bytes; no toolchain needed at build or run time). It computes exactly
 * `dotLanes` (lanes.ts): float32 vectors times a float32 query, multiplied and summed in float32
 * across eight lanes held in two f32x4 accumulators, so its results equal the plain-JS path bit
 * for bit, only faster. Float32 throughout keeps the kernel as fast as memory can feed it
 * (widening to float64 made it compute-bound at about twice the time of one pass over the column).
 *
 * Export `dots(vectors, dim, count, query, out)`, all byte offsets into the imported memory:
 * `count` float32 vectors of `dim` at `vectors`, a float32 query of `dim` at `query` (16-byte
 * aligned), and `count` float64 results (each a float32 value, widened) written at `out`. It also
 * reads one word READ_AHEAD bytes past each 64 it multiplies, so the memory must reach that far
 * past the last vector; it returns those words combined, which no caller needs.
 */

import {
  BLOCK,
  BR,
  BR_IF,
  compiledOnce,
  END,
  F32,
  F32_ADD,
  F32_LOAD,
  F32_MUL,
  F32X4_ADD,
  F32X4_EXTRACT_LANE,
  F32X4_MUL,
  F64_PROMOTE_F32,
  F64_STORE,
  get,
  I32,
  i32,
  I32_ADD,
  I32_AND,
  I32_GE_U,
  I32_GT_U,
  I32_LOAD,
  I32_SHR_U,
  I32_LT_U,
  I32_MUL,
  I32_SHL,
  I32_SUB,
  I32_XOR,
  IF,
  LOOP,
  memarg,
  oneFunctionModule,
  set,
  simd,
  V128,
  V128_LOAD,
  v128Zero,
  VOID,
} from "../../shared/wasm-encoding.js";

/** Vectors the kernel reads at a time, one from each of as many equal parts of its block (see body). */
export const STREAMS = 8;

// Locals: the five parameters, then scratch. BASE and P hold a vector's start and place in it, and
// ACC its sums, for each of the STREAMS vectors read at a time.
const [VECTORS, DIM, COUNT, QUERY, OUT] = [0, 1, 2, 3, 4];
const [S, PART, Q, I, END8, REST, STRIDE, AHEAD] = [5, 6, 7, 8, 9, 10, 11, 12];
const BASE = Array.from({ length: STREAMS }, (_, t) => 13 + t);
const P = Array.from({ length: STREAMS }, (_, t) => 13 + STREAMS + t);
// ACC[2t] holds lanes 0…3 of vector t and ACC[2t + 1] lanes 4…7, matching element i → lane i mod 8.
const ACC = Array.from({ length: 2 * STREAMS }, (_, k) => 13 + 2 * STREAMS + k);
const QUERY_PART = 13 + 4 * STREAMS;
const LANE = Array.from({ length: 8 }, (_, j) => 14 + 4 * STREAMS + j);

/**
 * How far ahead of the products the kernel reads one word of every 64 bytes. A memory-bound pass
 * keeps fewer loads in flight than a plain sum of the same bytes (each 16 bytes of a vector bring
 * a load of the query, a product and a sum along); the early read starts each cache line's fetch
 * before the products need it. In interleaved bench runs at 1M × 384, it took stream retrieval by
 * embedding from 1.20 to 1.17 times the one-pass floor. The word is combined into the result so
 * the compiler keeps the read.
 */
export const READ_AHEAD = 512;

/**
 * STREAMS vectors at a time, one from each of STREAMS equal parts of the call's vectors (s,
 * s + part, s + 2·part, …, with part = ⌊count / STREAMS⌋; the count mod STREAMS left at the end
 * one at a time), sixteen elements a turn, sharing each load of the query. Several streams of
 * reads keep more of memory busy than one. Timing the kernel alone over 2.6M × 384 in turn with
 * sums of the same bytes: one vector at a time took 1.08–1.09 times a one-stream sum; two, four
 * and eight streams took 1.05–1.06, 1.00 and 0.95 times a two-stream sum, which itself reads in
 * 0.82–0.85 of the time of one stream. The bench's floor is the fastest sum found (see
 * bench/floor.ts), against which eight streams take about 1.03.
 *
 * Tried against one vector at a time and slower, timing the kernel alone over 1M × 384 in turn
 * with a one-stream sum (25 rounds, p50; one vector a turn 1.07 times the sum): two or four
 * adjacent vectors a turn, sharing each load of the query, 1.17 and 1.23; turns of 32, 64, 128 or
 * all 384 elements, 1.11 to 1.23 (and again over 2.6M: 8, 32 or 64 elements, 1.10 to 1.13 against
 * 1.08); reading ahead 4,096 bytes 1.09, and not at all 1.13 (512 to 2,048: 1.07 to 1.08), and two
 * early reads per 64 bytes no faster than one. Making the cosines inside the kernel, a division
 * per vector after its sum, took retrieval by embedding at 1M from 1.20 to 1.24 times the floor
 * (two runs of each, in turn); they are made in a pass of their own over each block (simd-cosines.ts).
 */
function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => {
    for (const part of parts) code.push(...part);
  };
  // end8 = dim & ~7; rest = dim - end8; stride = dim * 4; part = count / STREAMS, rounded down
  emit(get(DIM), i32(-8), [I32_AND], set(END8));
  emit(get(DIM), get(END8), [I32_SUB], set(REST));
  emit(get(DIM), i32(4), [I32_MUL], set(STRIDE));
  emit(get(COUNT), i32(Math.log2(STREAMS)), [I32_SHR_U], set(PART));
  // Vectors s + t·part for every stream t, for s below part.
  BASE.forEach((base, t) => emit(get(VECTORS), get(PART), i32(t), [I32_MUL], get(STRIDE), [I32_MUL, I32_ADD], set(base)));
  emit(i32(0), set(S));
  emit([BLOCK, VOID, LOOP, VOID], get(S), get(PART), [I32_GE_U, BR_IF, 1]);
  products(emit, STREAMS, (t) => emit(get(S), get(PART), i32(t), [I32_MUL, I32_ADD]));
  for (const base of BASE) emit(get(base), get(STRIDE), [I32_ADD], set(base));
  emit(get(S), i32(1), [I32_ADD], set(S), [BR, 0, END, END]);
  // The vectors past the parts, from STREAMS·part on, one at a time.
  emit(get(PART), i32(Math.log2(STREAMS)), [I32_SHL], set(S));
  emit(get(VECTORS), get(S), get(STRIDE), [I32_MUL, I32_ADD], set(BASE[0]));
  emit([BLOCK, VOID, LOOP, VOID], get(S), get(COUNT), [I32_GE_U, BR_IF, 1]);
  products(emit, 1, () => emit(get(S)));
  emit(get(BASE[0]), get(STRIDE), [I32_ADD], set(BASE[0]), get(S), i32(1), [I32_ADD], set(S), [BR, 0, END, END]);
  emit(get(AHEAD));
  return code;
}

/**
 * The products of `vectors` (1 or STREAMS) vectors, from BASE[t], written to out[slot(t)], where
 * `slot` emits the slot's index.
 */
function products(emit: (...parts: number[][]) => void, vectors: number, slot: (t: number) => void): void {
  const streams = Array.from({ length: vectors }, (_, t) => t);
  for (const acc of ACC.slice(0, 2 * vectors)) emit(v128Zero(), set(acc));
  for (const t of streams) emit(get(BASE[t]), set(P[t]));
  emit(get(QUERY), set(Q), i32(0), set(I));
  // Sixteen elements per turn while they last, then one turn of eight: fewer loop branches.
  // Vectors sit at dim·4-byte strides, so their loads claim only 4-byte alignment.
  const step = (at: number) => {
    for (let k = 0; k < 2; k++) {
      // acc = acc + (four float32 of the vector at 4·at + 16k) · (the query's four there)
      const offset = 4 * at + 16 * k;
      emit(get(Q), simd(V128_LOAD, ...memarg(4, offset)), set(QUERY_PART));
      for (const t of streams) {
        emit(get(ACC[2 * t + k]), get(P[t]), simd(V128_LOAD, ...memarg(2, offset)));
        emit(get(QUERY_PART), simd(F32X4_MUL), simd(F32X4_ADD), set(ACC[2 * t + k]));
      }
    }
  };
  const advance = (elements: number) => {
    for (const t of streams) emit(get(P[t]), i32(4 * elements), [I32_ADD], set(P[t]));
    emit(get(Q), i32(4 * elements), [I32_ADD], set(Q), get(I), i32(elements), [I32_ADD], set(I));
  };
  emit([BLOCK, VOID, LOOP, VOID]);
  emit(get(I), i32(16), [I32_ADD], get(END8), [I32_GT_U, BR_IF, 1]);
  step(0);
  step(8);
  for (const t of streams) emit(get(AHEAD), get(P[t]), [I32_LOAD], memarg(2, READ_AHEAD), [I32_XOR], set(AHEAD));
  advance(16);
  emit([BR, 0, END, END]);
  emit(get(I), get(END8), [I32_LT_U, IF, VOID]);
  step(0);
  advance(8);
  emit([END]);
  for (const t of streams) {
    for (let k = 0; k < 2; k++) {
      for (let j = 0; j < 4; j++) emit(get(ACC[2 * t + k]), simd(F32X4_EXTRACT_LANE, j), set(LANE[4 * k + j]));
    }
    // The tail (dim mod 8 elements) goes to lanes 0…6, as in dotLanes.
    for (let j = 0; j < 7; j++) {
      emit(get(REST), i32(j), [I32_GT_U, IF, VOID]);
      emit(get(LANE[j]), get(P[t]), [F32_LOAD], memarg(2, 4 * j));
      emit(get(Q), [F32_LOAD], memarg(2, 4 * j), [F32_MUL, F32_ADD], set(LANE[j]), [END]);
    }
    // out[slot] = promote(((l0 + l2) + (l4 + l6)) + ((l1 + l3) + (l5 + l7))), all sums in float32
    emit(get(OUT));
    slot(t);
    emit(i32(3), [I32_SHL, I32_ADD]);
    emit(get(LANE[0]), get(LANE[2]), [F32_ADD], get(LANE[4]), get(LANE[6]), [F32_ADD, F32_ADD]);
    emit(get(LANE[1]), get(LANE[3]), [F32_ADD], get(LANE[5]), get(LANE[7]), [F32_ADD, F32_ADD]);
    emit([F32_ADD, F64_PROMOTE_F32, F64_STORE], memarg(3, 0));
  }
}

/** The kernel's module bytes. */
export function simdDotsModuleBytes(): Uint8Array<ArrayBuffer> {
  return oneFunctionModule({
    name: "dots",
    params: [I32, I32, I32, I32, I32],
    results: [I32],
    locals: [
      [8 + 2 * STREAMS, I32],
      [ACC.length + 1, V128],
      [8, F32],
    ],
    code: body(),
  });
}

export type DotsKernel = (vectors: number, dim: number, count: number, query: number, out: number) => number;

const kernel = compiledOnce<DotsKernel>("dots", simdDotsModuleBytes);

/** Whether this runtime has WebAssembly SIMD, so that instantiateDots gives a kernel. */
export function hasSimd(): boolean {
  return kernel.available();
}

/** The kernel bound to `memory`, or null when SIMD is unavailable. Compiled once. */
export function instantiateDots(memory: WebAssembly.Memory): DotsKernel | null {
  return kernel.bind(memory);
}
