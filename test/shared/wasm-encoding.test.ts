import { describe, expect, it } from "vitest";
import { name, section, simd, sleb, uleb, vec, WASM_HEADER } from "../../src/shared/wasm-encoding.js";

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
