import { describe, expect, it } from "vitest";
import { FontMetrics } from "../../../src/report/charts/font-metrics.js";
import { fontFiles } from "../../../src/report/charts/fonts.js";
import { measureTextWidth } from "../../../src/report/charts/text-measure.js";

describe("FontMetrics", () => {
  const [regularFile] = fontFiles();
  const regular = FontMetrics.fromFile(regularFile!);

  it("measures text from the font's own advance widths", () => {
    // DejaVu Sans is proportional: a wide letter takes more room than a narrow one.
    expect(regular.width("MMMM", 10)).toBeGreaterThan(regular.width("iiii", 10) * 2);
    // Width scales linearly with the font size and adds up over characters.
    expect(regular.width("ab", 20)).toBeCloseTo(2 * regular.width("ab", 10), 9);
    expect(regular.width("ab", 12)).toBeCloseTo(regular.width("a", 12) + regular.width("b", 12), 9);
  });

  it("is narrower than Vega's 0.8em-per-character guess for ordinary text", () => {
    const text = "recall_any@1 along the timeline";
    const width = regular.width(text, 12);
    expect(width).toBeLessThan(0.8 * text.length * 12);
    expect(width).toBeGreaterThan(0.4 * text.length * 12);
  });

  it("rejects a file that is not a font", () => {
    expect(() => FontMetrics.fromBuffer(Buffer.from("not a font at all"), "x.ttf")).toThrow(/x\.ttf/);
  });
});

describe("measureTextWidth", () => {
  it("measures bold text with the bold face and ignores surrounding spaces", () => {
    const plain = measureTextWidth({ fontSize: 12 }, "Ablation");
    expect(measureTextWidth({ fontSize: 12, fontWeight: "bold" }, "Ablation")).toBeGreaterThan(plain);
    expect(measureTextWidth({ fontSize: 12 }, "  Ablation  ")).toBe(plain);
    expect(measureTextWidth({ fontSize: 12 }, null)).toBe(0);
  });
});
