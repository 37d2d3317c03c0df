import { describe, expect, it } from "vitest";
import { formatCell, markdownTable } from "../../src/bench/format.js";

describe("markdown table", () => {
  it("right-aligns numeric columns and pads every cell to its column", () => {
    const table = markdownTable(["N", "p50", "kernel"], [
      [1000, 0.25, "JS"],
      [100000, 12.5, "wasm SIMD"],
    ]);
    expect(table.split("\n")).toEqual([
      "|       N |   p50 | kernel    |",
      "| ------: | ----: | --------- |",
      "|   1,000 | 0.250 | JS        |",
      "| 100,000 |  12.5 | wasm SIMD |",
    ]);
  });

  it("prints missing figures as a dash and keeps such columns numeric", () => {
    expect(formatCell(null)).toBe("–");
    expect(markdownTable(["x"], [[null], [1.5]]).split("\n")).toEqual(["|    x |", "| ---: |", "|    – |", "| 1.50 |"]);
  });

  it("gives counts without decimals and small figures three places", () => {
    expect(formatCell(50)).toBe("50");
    expect(formatCell(3.14159)).toBe("3.14");
    expect(formatCell(0.01234)).toBe("0.012");
  });
});
