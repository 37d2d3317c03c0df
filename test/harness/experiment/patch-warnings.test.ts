import { describe, expect, it } from "vitest";
import { loadExperiment } from "../../../src/harness/experiment/load.js";
import { useTempDir } from "../temp-files.js";

/**
 * An experiment is warned of a patch that changes nothing: the loader compares what every policy
 * retrieves by with and without it. The full policy gives each kind that ranks by score a decay of
 * its own, so a `decayRate` reaches no per-kind ablation, but it does reach the pooled one, whose
 * one ranking decays working memories at that rate.
 */
const temp = useTempDir();
temp.write(
  "scenarios/tea.yaml",
  ["name: tea", "description: one ask", "steps:", '  - remember: { id: fact, kind: semantic, text: "The user likes tea." }', '  - ask: { id: q, query: "What does the user like?", expect: [fact] }'].join("\n"),
);
let counter = 0;
const warningsOf = async (...lines: string[]) => {
  const file = temp.write(`experiments/e${++counter}.yaml`, ["name: spec", "description: a patch under test", "scenarios: [../scenarios/tea.yaml]", "allowOutside: true", "seeds: [1]", ...lines].join("\n"));
  return { file, warnings: (await loadExperiment(file)).warnings };
};

describe("patchWarnings, through the experiment loader", () => {
  it("warns of a policyPatch whose decayRate every ablation overrides with its kinds' own decay", async () => {
    const { file, warnings } = await warningsOf("policyPatch: { score: { decayRate: 0.9 } }", "ablations: [full, relevance-only, no-touch]");
    expect(warnings).toEqual([`${file}: at policyPatch: the patch changes nothing in any policy of the experiment: every setting it names is overridden or unused by each ablation`]);
  });

  it("says nothing when one ablation uses the setting (pooled decays working memories at decayRate)", async () => {
    expect((await warningsOf("policyPatch: { score: { decayRate: 0.9 } }", "ablations: [full, pooled]")).warnings).toEqual([]);
  });

  it("says nothing of a patch that changes a setting in use, or of no patch at all", async () => {
    expect((await warningsOf("policyPatch: { touch: false }", "ablations: [full]")).warnings).toEqual([]);
    expect((await warningsOf("ablations: [full, no-decay]")).warnings).toEqual([]);
  });

  it("counts the sweep's points among the policies a patch may change", async () => {
    const sweep = "sweep: { grid: { mode: [per-kind, pooled] }, objective: { metric: mrr } }";
    expect((await warningsOf("policyPatch: { score: { decayRate: 0.9 } }", "ablations: [full]", sweep)).warnings).toEqual([]);
    const { warnings } = await warningsOf("policyPatch: { pooled: { limit: 3 } }", "ablations: [full]", "sweep: { grid: { touch: [true, false] }, objective: { metric: mrr } }");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/overridden or unused by each ablation and sweep point$/);
  });

  it("warns of a custom ablation whose patch leaves it retrieving as the ablation it starts from", async () => {
    const { file, warnings } = await warningsOf(
      "ablations:",
      "  - full",
      "  - { name: slow-decay, from: no-decay, patch: { score: { unitMs: 86400000 } } }",
      "  - { name: daily-decay, patch: { score: { unitMs: 86400000 } } }",
    );
    expect(warnings).toEqual([`${file}: at ablations[1].patch: ablation "slow-decay" retrieves exactly as "no-decay" does: every setting its patch names is overridden or unused`]);
  });
});
