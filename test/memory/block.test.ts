import { describe, expect, it } from "vitest";
import { emptySection, fitSection, renderBlock } from "../../src/memory/block.js";

const costs = [5, 20, 3, 4];
const at = (p: number) => costs[p];

describe("fitSection", () => {
  it("stop ends the section at the first item over the quota", () => {
    expect(fitSection(4, at, { fit: "stop", limit: 10, quota: 10 })).toEqual({ kept: [0], tokensUsed: 5, examined: 2, complete: true });
  });
  it("skip passes over it and keeps going", () => {
    expect(fitSection(4, at, { fit: "skip", limit: 10, quota: 12 })).toMatchObject({ kept: [0, 2, 3], tokensUsed: 12 });
  });
  it("honours the item limit and an unbounded quota", () => {
    expect(fitSection(4, at, { fit: "skip", limit: 2, quota: null })).toMatchObject({ kept: [0, 1], complete: true });
  });
  it("is complete once the quota left is below the cheapest candidate", () => {
    expect(fitSection(4, at, { fit: "skip", limit: 10, quota: 6 }, 3)).toMatchObject({ kept: [0], examined: 1, complete: true });
    expect(fitSection(4, at, { fit: "skip", limit: 10, quota: 6 }, 0)).toMatchObject({ kept: [0], examined: 4, complete: false });
  });
});

describe("renderBlock", () => {
  it("wraps each non-empty section in its tags", () => {
    expect(renderBlock([{ name: "working", lines: ["- a"] }, { name: "semantic", lines: [] }, { name: "episodic", lines: ["- b", "- c"] }])).toBe(
      "<working>\n- a\n</working>\n<episodic>\n- b\n- c\n</episodic>",
    );
  });
});

describe("emptySection", () => {
  it("ranks, keeps and drops nothing, and keeps its quota", () => {
    expect(emptySection("semantic", 40)).toEqual({ name: "semantic", ranked: [], kept: [], dropped: [], tokensUsed: 0, quota: 40 });
  });
});
