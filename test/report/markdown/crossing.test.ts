import { describe, expect, it } from "vitest";
import { crossingLabel, relevanceOf } from "../../../src/report/markdown/crossing.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

describe("relevanceOf", () => {
  it("reads the backend a policy ranks by, and has none for a name that is not a policy of ours", () => {
    const results = addAblation(syntheticResults(), "lexical", "full");
    results.experiment.ablations.find((a) => a.name === "lexical")!.policy!.score.relevance = "bm25";
    expect(relevanceOf(results.experiment, "full")).toBe("words");
    expect(relevanceOf(results.experiment, "lexical")).toBe("bm25");
    expect(relevanceOf(results.experiment, "nowhere")).toBeUndefined();
  });
});

describe("crossingLabel", () => {
  it("labels a comparison across relevance backends, mine first, and nothing else", () => {
    expect(crossingLabel("bm25", "words")).toBe("across relevance backends, bm25 against words");
    expect(crossingLabel("words", "words")).toBe("");
    expect(crossingLabel(undefined, "words")).toBe("");
    expect(crossingLabel("bm25", undefined)).toBe("");
  });
});
