import { describe, expect, it } from "vitest";
import {
  F32_LOAD,
  F64,
  F64_ADD,
  F64_PROMOTE_F32,
  get,
  I32,
  i32,
  I32_ADD,
  memarg,
  name,
  oneFunctionModule,
  section,
  set,
  sharedMemory,
  simd,
  sleb,
  uleb,
  vec,
  WASM_HEADER,
} from "../../src/shared/wasm-encoding.js";

// Examples from the LEB128 article and the WebAssembly binary format specification.
describe("uleb (unsigned LEB128)", () => {
  it.each([
    [0, [0x00]],
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [300, [0xac, 0x02]],
    [624_485, [0xe5, 0x8e, 0x26]],
    [2 ** 32 - 1, [0xff, 0xff, 0xff, 0xff, 0x0f]],
  ])("encodes %i", (n, bytes) => expect(uleb(n)).toEqual(bytes));
});

describe("sleb (signed LEB128)", () => {
  it.each([
    [0, [0x00]],
    [63, [0x3f]],
    [64, [0xc0, 0x00]],
    [-1, [0x7f]],
    [-64, [0x40]],
    [-65, [0xbf, 0x7f]],
    [-8, [0x78]],
    [-123_456, [0xc0, 0xbb, 0x78]],
  ])("encodes %i", (n, bytes) => expect(sleb(n)).toEqual(bytes));
});

describe("the binary format's pieces", () => {
  it("a name is its UTF-8 byte length, then the bytes", () => expect(name("dé")).toEqual([3, 0x64, 0xc3, 0xa9]));
  it("a section is its id, its body's length, then the body", () => expect(section(7, [1, 2, 3])).toEqual([7, 3, 1, 2, 3]));
  it("a vector is its item count, then the items one after another", () => expect(vec([[1], [2, 3]])).toEqual([2, 1, 2, 3]));
  it("a SIMD instruction is 0xfd, its opcode in LEB128, then its immediates", () => {
    expect(simd(0x0c, 9)).toEqual([0xfd, 0x0c, 9]);
    expect(simd(0xe4)).toEqual([0xfd, 0xe4, 0x01]);
  });
  it("the header makes a module that WebAssembly accepts", () => {
    expect(WebAssembly.validate(new Uint8Array(WASM_HEADER))).toBe(true);
  });
});

describe("oneFunctionModule", () => {
  // sum2(ptr) → f64: the float32 at ptr plus the one after it, through a scratch local.
  const sum2 = () =>
    oneFunctionModule({
      name: "sum2",
      params: [I32],
      results: [F64],
      locals: [[1, I32]],
      code: [...get(0), ...i32(4), I32_ADD, ...set(1), ...get(0), F32_LOAD, ...memarg(2, 0), F64_PROMOTE_F32, ...get(1), F32_LOAD, ...memarg(2, 0), F64_PROMOTE_F32, F64_ADD],
    });

  it("makes a module that imports a shared env.memory and exports the one function under its name", () => {
    const module = new WebAssembly.Module(sum2());
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: "env", name: "memory", kind: "memory" }]);
    expect(WebAssembly.Module.exports(module)).toEqual([{ name: "sum2", kind: "function" }]);
  });

  it("runs the function over that memory", () => {
    const memory = sharedMemory(1);
    new Float32Array(memory.buffer).set([0, 1.5, 2.25], 0);
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(sum2()), { env: { memory } });
    expect((exports.sum2 as (ptr: number) => number)(4)).toBe(3.75);
  });
});
