import { describe, expect, it } from "vitest";
import { byCodeUnit } from "../../src/shared/order.js";

describe("byCodeUnit", () => {
  it("orders by UTF-16 code unit, whatever the locale: capitals before small letters, ASCII before accents", () => {
    expect(["b", "a", "B", "é", "e", "A"].sort(byCodeUnit)).toEqual(["A", "B", "a", "b", "e", "é"]);
  });

  it("puts a prefix first", () => expect(["ab", "a", "abc"].sort(byCodeUnit)).toEqual(["a", "ab", "abc"]));

  it("is 0 only for equal strings, and antisymmetric", () => {
    expect(byCodeUnit("x", "x")).toBe(0);
    expect(byCodeUnit("x", "y")).toBe(-1);
    expect(byCodeUnit("y", "x")).toBe(1);
  });
});
