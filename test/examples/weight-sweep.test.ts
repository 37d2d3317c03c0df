import { describe, expect, it } from "vitest";
import { loadExperiment } from "../../src/harness/experiment/load.js";
import { repoPath } from "../harness/temp-files.js";

/**
 * The weight sweep the README's speed figure comes from: a hundred weight vectors, ranked in one
 * pass of each conversation. Its dataset is not imported here; the sweep alone is checked.
 */
describe("examples/weight-sweep", () => {
  it("sweeps 100 weight vectors with touch off, so one pass of each conversation ranks them all", async () => {
    const experiment = await loadExperiment(repoPath("examples/weight-sweep/locomo-weights.yaml"), async () => ({ scenarios: [], datasets: [] }));
    const sweep = experiment.sweep!;
    expect(sweep.points).toHaveLength(100);
    expect(new Set(sweep.points.map((p) => JSON.stringify(p.policy.score.weights))).size).toBe(100);
    expect(sweep.sharedTimeline).toBe(true);
    expect(sweep.spec.objective.metric).toBe("recall_any@5");
  });
});
