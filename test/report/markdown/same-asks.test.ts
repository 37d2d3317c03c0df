import { describe, expect, it } from "vitest";
import { metricNames } from "../../../src/harness/metrics.js";
import { identicalGroups } from "../../../src/report/markdown/same-asks.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

const metrics = metricNames(syntheticResults().experiment.k);

describe("identicalGroups", () => {
  it("groups policies with the same value on every ask and metric, in the experiment's order", () => {
    let results = addAblation(syntheticResults(), "twin", "relevance-only");
    results = addAblation(results, "copy", "full");
    expect(identicalGroups(results, metrics)).toEqual([["full", "copy"], ["relevance-only", "twin"], ["no-decay"], ["no-touch"]]);
  });

  it("keeps apart policies that differ on one ask of one metric", () => {
    let changed = false;
    const results = addAblation(syntheticResults(), "almost", "no-touch", (a) => {
      if (changed) return a;
      changed = true;
      return { ...a, tokens: a.tokens + 1 };
    });
    expect(identicalGroups(results, metrics)).toContainEqual(["almost"]);
    // On the rank metrics alone they are the same.
    expect(identicalGroups(results, ["mrr"])).toContainEqual(["no-touch", "almost"]);
  });

  it("keeps apart policies that rank by different relevance backends, so that a label of one holds for the other", () => {
    const results = addAblation(syntheticResults(), "lexical-copy", "full");
    results.experiment.ablations.find((a) => a.name === "lexical-copy")!.policy!.score.relevance = "bm25";
    expect(identicalGroups(results, metrics)).toContainEqual(["lexical-copy"]);
  });
});

describe("identicalGroups and section layouts", () => {
  it("keeps apart a pooled policy that scores as a per-kind one, since only one of them has comparable ranks", () => {
    const results = addAblation(syntheticResults(), "pooled-copy", "full");
    results.experiment.ablations.find((a) => a.name === "pooled-copy")!.policy!.mode = "pooled";
    expect(identicalGroups(results, metrics)).toContainEqual(["pooled-copy"]);
  });
});
