import { describe, expect, it } from "vitest";
import { formatNumber, markdownTable } from "../../../src/report/markdown/table.js";

describe("markdownTable", () => {
  const table = markdownTable(
    ["Name", { header: "Value", align: "right" }, { header: "Mark", align: "center" }],
    [
      ["alpha", 0.5, "\u2713"],
      ["a much longer name", -1.23456, null],
      ["pipe | inside", 12, ""],
    ],
  );
  const lines = table.split("\n");

  it("pads every column to its widest cell", () => {
    expect(lines).toEqual([
      "| Name               |  Value | Mark |",
      "| ------------------ | -----: | :--: |",
      "| alpha              |  0.500 |  \u2713   |",
      "| a much longer name | \u22121.235 |  \u2014   |",
      "| pipe \\| inside     | 12.000 |      |",
    ]);
  });

  it("leaves no trailing spaces", () => {
    for (const line of lines) expect(line).not.toMatch(/\s$/);
  });

  it("formats numbers with the requested decimals", () => {
    const t = markdownTable(["x"], [[Math.PI], [2]], { decimals: 1 });
    expect(t.split("\n").slice(2)).toEqual(["| 3.1 |", "| 2.0 |"]);
  });

  it("is a pure function of its input", () => {
    expect(
      markdownTable(
        ["Name", { header: "Value", align: "right" }, { header: "Mark", align: "center" }],
        [
          ["alpha", 0.5, "\u2713"],
          ["a much longer name", -1.23456, null],
          ["pipe | inside", 12, ""],
        ],
      ),
    ).toBe(table);
  });

  it("refuses a row with the wrong number of cells", () => {
    expect(() => markdownTable(["a", "b"], [["only one"]])).toThrow(/row 0 has 1 cells/);
  });
});

describe("formatNumber", () => {
  it("uses a true minus sign and never shows −0", () => {
    expect(formatNumber(-0.25, 2)).toBe("\u22120.25");
    expect(formatNumber(-0.0001, 3)).toBe("0.000");
    expect(formatNumber(0, 1)).toBe("0.0");
  });

  it("refuses what is not a finite number", () => {
    expect(() => formatNumber(Number.NaN)).toThrow(/not a finite number/);
  });
});
