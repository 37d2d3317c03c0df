import { describe, expect, it } from "vitest";
import {
  categoryLabel,
  DEFAULT_LOCOMO_CATEGORIES,
  isLocomoCategory,
  LOCOMO_CATEGORIES,
} from "../../../src/datasets/locomo/categories.js";

describe("LoCoMo categories", () => {
  it("uses the ids of the official evaluation code", () => {
    expect(LOCOMO_CATEGORIES).toEqual({
      1: "multi-hop",
      2: "temporal",
      3: "open-domain",
      4: "single-hop",
      5: "adversarial",
    });
  });

  it("always shows the name beside the id", () => {
    expect(categoryLabel(1)).toBe("1 multi-hop");
    expect(categoryLabel(4)).toBe("4 single-hop");
    expect(categoryLabel(5)).toBe("5 adversarial");
  });

  it("imports categories 1–4 by default, leaving adversarial questions opt-in", () => {
    expect(DEFAULT_LOCOMO_CATEGORIES).toEqual([1, 2, 3, 4]);
  });

  it("recognises only the five ids", () => {
    expect([0, 1, 5, 6, 1.5].map(isLocomoCategory)).toEqual([false, true, true, false, false]);
  });
});
