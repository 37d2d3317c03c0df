import { describe, expect, it } from "vitest";
import { assignFolds } from "../../../src/harness/sweep/folds.js";
import { crossValidate } from "../../../src/harness/sweep/select.js";
import { createRng, sampleNormal } from "../../../src/harness/stats/index.js";

/** Ten clusters of twenty asks, each ask's cluster named; `score(point, ask)` gives the objective. */
function synthetic(points: number, score: (point: number, ask: number, cluster: number) => number) {
  const clusterOf = Array.from({ length: 200 }, (_, i) => `c${Math.floor(i / 20)}`);
  const values = Array.from({ length: points }, (_, p) => clusterOf.map((_, i) => score(p, i, Math.floor(i / 20))));
  return { clusterOf, values, folds: assignFolds(clusterOf, 5, 1) };
}

describe("crossValidate", () => {
  it("finds the one best point on every fold, and its held-out score is its true score", () => {
    const best = 7;
    const { clusterOf, values, folds } = synthetic(20, (p, i) => (p === best ? 0.8 : 0.5) + ((i % 4) - 1.5) * 0.01);
    const selection = crossValidate(values, clusterOf, folds);
    expect(selection.folds.map((f) => f.chosen)).toEqual([best, best, best, best, best]);
    expect(selection.chosen).toBe(best);
    selection.folds.forEach((f) => expect(f.heldOutScore).toBeCloseTo(0.8, 1));
    expect(selection.heldOut).toEqual(values[best]);
  });

  it("scores below its training score when many equal points differ only by noise: the training score is optimistic", () => {
    const rng = createRng(3);
    const { clusterOf, values, folds } = synthetic(50, () => 0.5 + sampleNormal(rng, 0, 0.2));
    const selection = crossValidate(values, clusterOf, folds);
    for (const fold of selection.folds) expect(fold.heldOutScore).toBeLessThan(fold.training);
    const heldOutMean = selection.heldOut.reduce((a, b) => a + b, 0) / selection.heldOut.length;
    expect(heldOutMean).toBeLessThan(selection.chosenScore);
  });

  it("chooses on the training folds alone and scores each held-out ask by its own fold's choice", () => {
    // Point 0 is best on clusters c0–c4 and point 1 on c5–c9, by a wide margin.
    const { clusterOf, values, folds } = synthetic(2, (p, _i, c) => ((c < 5) === (p === 0) ? 0.9 : 0.1));
    const selection = crossValidate(values, clusterOf, folds);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    selection.folds.forEach((fold) => {
      const training = (p: number) => mean(values[p].filter((_, i) => !fold.heldOut.includes(clusterOf[i])));
      expect(fold.chosen).toBe(training(1) > training(0) ? 1 : 0);
      clusterOf.forEach((c, i) => {
        if (fold.heldOut.includes(c)) expect(selection.heldOut[i]).toBe(values[fold.chosen][i]);
      });
    });
  });

  it("breaks a tie in favour of the earlier point", () => {
    const { clusterOf, values, folds } = synthetic(3, () => 0.5);
    const selection = crossValidate(values, clusterOf, folds);
    expect(selection.folds.every((f) => f.chosen === 0)).toBe(true);
    expect(selection.chosen).toBe(0);
  });
});
