import { describe, expect, it } from "vitest";
import { onePass, plainSum, simdSummer } from "../../src/bench/floor.js";
import { sharedMemory } from "../../src/shared/wasm-encoding.js";

/** A view of `values` copied into a fresh shared memory at byte 64. */
function inWasm(values: number[]): { vectors: Float32Array; wasmMemory: WebAssembly.Memory } {
  const wasmMemory = sharedMemory(1);
  const vectors = new Float32Array(wasmMemory.buffer, 64, values.length);
  vectors.set(values);
  return { vectors, wasmMemory };
}

describe("the one-pass floor", () => {
  it("sums a view of wasm memory in SIMD as four parts read together, a rest past them included", () => {
    // Four parts of 32, then a rest of 21; and fewer than four sixteens, all in the rest.
    for (const length of [149, 37]) {
      const values = Array.from({ length }, (_, i) => i + 1);
      const { vectors, wasmMemory } = inWasm(values);
      expect(simdSummer(wasmMemory)?.(vectors), `${length} values`).toBe((length * (length + 1)) / 2);
      expect(plainSum(Float32Array.from(values))).toBe((length * (length + 1)) / 2);
    }
  });

  it("refuses a view of another memory or off a 16-byte boundary", () => {
    const { vectors, wasmMemory } = inWasm([1, 2, 3]);
    const summer = simdSummer(sharedMemory(1))!;
    expect(() => summer(vectors)).toThrow("simdSummer: values must be a 16-aligned view of the memory");
    expect(() => simdSummer(wasmMemory)!(vectors.subarray(1))).toThrow("16-aligned");
  });

  it("passes over every chunk once, each in its own memory or in plain JS", () => {
    const chunks = [inWasm([1, 2, 3]), { vectors: Float32Array.from([10, 20]), wasmMemory: null }, inWasm(new Array(20).fill(100))];
    const pass = onePass(chunks);
    expect(pass()).toBe(6 + 30 + 2_000);
    chunks[1].vectors[0] = 11;
    expect(pass()).toBe(2_037); // it reads the chunks as they are at each pass
    expect(onePass([])()).toBe(0);
  });
});
