import { describe, expect, it } from "vitest";
import { formatInterval, formatP, formatSigned, formatSignedInterval } from "../../../src/report/markdown/format.js";

describe("formatting of statistics", () => {
  it("shows an interval as mean [lo, hi], and an empty one as a dash", () => {
    expect(formatInterval({ mean: 0.5, lo: 0.25, hi: 0.75, n: 10 })).toBe("0.500 [0.250, 0.750]");
    expect(formatInterval({ mean: 0, lo: 0, hi: 0, n: 0 })).toBe("\u2014");
  });

  it("signs differences", () => {
    expect(formatSigned(0.12)).toBe("+0.120");
    expect(formatSigned(-0.12)).toBe("\u22120.120");
    expect(formatSigned(0)).toBe("0.000");
    expect(formatSignedInterval({ mean: -0.1, lo: -0.2, hi: 0.05, n: 3 })).toBe("\u22120.100 [\u22120.200, +0.050]");
  });

  it("never shows a p-value as 0", () => {
    expect(formatP(1 / 10_001)).toBe("<0.001");
    expect(formatP(0.0312)).toBe("0.031");
    expect(formatP(1)).toBe("1.000");
  });
});
