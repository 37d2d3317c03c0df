import { describe, expect, it } from "vitest";
import { memoisedCounter } from "../../../src/harness/runner/worker.js";

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
