import { describe, expect, it } from "vitest";
import { canonicalJson, prettyJson } from "../../src/model/canonical-json.js";

describe("canonicalJson", () => {
  it("gives equal strings for equal data in any key order, without undefined values", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe("prettyJson", () => {
  it("indents by two spaces, sorts keys, keeps number arrays on one line and ends in a newline", () => {
    expect(prettyJson({ z: [0.5, -1], a: [{ y: "s", x: [] }], e: {} })).toBe(
      '{\n  "a": [\n    {\n      "x": [],\n      "y": "s"\n    }\n  ],\n  "e": {},\n  "z": [0.5,-1]\n}\n',
    );
  });

  it("round-trips through JSON.parse", () => {
    const value = { k: [[0.1, 0.2], [0.30000000000000004]], s: "a\nb", n: null, t: true };
    expect(JSON.parse(prettyJson(value))).toEqual(value);
  });
});
