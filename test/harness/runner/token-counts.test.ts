import { describe, expect, it } from "vitest";
import { memoisedCounter, tableCounter } from "../../../src/harness/runner/token-counts.js";

describe("memoisedCounter", () => {
  it("counts each distinct text once and returns the same count after", () => {
    const seen: string[] = [];
    const counter = memoisedCounter({
      count: (text) => {
        seen.push(text);
        return text.length;
      },
    });
    expect([counter.count("tea"), counter.count("coffee"), counter.count("tea")]).toEqual([3, 6, 3]);
    expect(seen).toEqual(["tea", "coffee"]);
  });
});

describe("tableCounter", () => {
  it("looks counts up, and fails loudly on a line that was not prepared", () => {
    const counter = tableCounter(["- tea", "- coffee"], [2, 3]);
    expect([counter.count("- coffee"), counter.count("- tea")]).toEqual([3, 2]);
    expect(() => counter.count("- milk")).toThrow(/no token count was prepared for the line "- milk"/);
  });
});
