import { describe, expect, it } from "vitest";
import { assignFolds } from "../../../src/harness/sweep/folds.js";

const clusters = Array.from({ length: 10 }, (_, i) => `conv-${i}`);

describe("assignFolds", () => {
  it("puts every cluster in exactly one fold, so no cluster is on both the training and the held-out side of any fold", () => {
    const folds = assignFolds(clusters, 5, 1);
    expect(folds).toHaveLength(5);
    expect(folds.flat().sort()).toEqual([...clusters].sort());
    folds.forEach((heldOut, f) => {
      const training = folds.filter((_, g) => g !== f).flat();
      expect(heldOut.filter((c) => training.includes(c))).toEqual([]);
    });
  });

  it("takes the clusters of asks, whatever their order and repetition, and deals them evenly", () => {
    const asks = [...clusters, ...clusters].reverse();
    const folds = assignFolds(asks, 3, 1);
    expect(folds.map((f) => f.length).sort()).toEqual([3, 3, 4]);
    expect(folds).toEqual(assignFolds(clusters, 3, 1));
  });

  it("depends on the seed alone: the same seed gives the same folds, another seed others", () => {
    expect(assignFolds(clusters, 5, 7)).toEqual(assignFolds(clusters, 5, 7));
    expect(assignFolds(clusters, 5, 7)).not.toEqual(assignFolds(clusters, 5, 8));
  });

  it("leaves one cluster out per fold when there are fewer clusters than folds", () => {
    expect(assignFolds(["b", "a", "c"], 5, 1).map((f) => f.length)).toEqual([1, 1, 1]);
  });

  it("refuses a single cluster: nothing would be left to train on", () => {
    expect(() => assignFolds(["a", "a"], 5, 1)).toThrow(/at least two clusters/);
  });
});
