import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGemmaTokenizer } from "../../../src/memory/index.js";
import { type Experiment, loadExperiment } from "../../../src/harness/experiment/load.js";
import { buildResults } from "../../../src/harness/results/build.js";
import { compareResults } from "../../../src/harness/results/compare.js";
import { readResults } from "../../../src/harness/results/io.js";
import { buildManifest } from "../../../src/harness/results/manifest.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { embeddingService } from "../../../src/harness/runner/embeddings.js";
import { runTrials } from "../../../src/harness/runner/run.js";

/**
 * The regression check compares the committed results/core.json with a fresh run of
 * experiments/core.yaml, exactly as `npm run check` does (paths are relative to the repository
 * root, where the tests run). That an unchanged run finds no difference is the check itself, which
 * ends `npm test`; here a regression is planted in a fresh run, to see what the comparison says.
 */
const EXPERIMENT = "experiments/core.yaml";
const RECORDED = "results/core.json";

// core ranks some ablations by the in-process encoder.
const embeddings = embeddingService({ cacheFile: join(mkdtempSync(join(tmpdir(), "recollect-compare-")), "embeddings.db") });
afterAll(() => embeddings.close());

async function freshRun(experiment: Experiment): Promise<ExperimentResults> {
  const trials = await runTrials(experiment, { workers: 1, embed: embeddings.embed });
  const tokenizer = await loadGemmaTokenizer();
  const manifest = buildManifest({ tokenizerSha256: tokenizer.sha256, datasets: experiment.datasets, experimentHash: experiment.hash, wallTimeMs: 1 });
  return buildResults(experiment, trials, manifest);
}

/** The same experiment with touch turned off in every recollect ablation's policy: a regression planted in the policy. */
function withoutTouch(experiment: Experiment): Experiment {
  return {
    ...experiment,
    ablations: experiment.ablations.map((a) => {
      // Systems that are not recollect (the baselines) have no policy to plant it in.
      if (a.policy === undefined) return a;
      const policy = { ...a.policy, touch: false };
      return { ...a, policy, system: { type: "recollect" as const, policy } };
    }),
  };
}

let recorded: ExperimentResults;
let experiment: Experiment;

beforeAll(async () => {
  recorded = readResults(RECORDED)!;
  experiment = await loadExperiment(EXPERIMENT);
});

describe("compareResults against the committed core results", () => {
  describe("with touch disabled in every ablation's policy", () => {
    let lines: string[];
    beforeAll(async () => {
      lines = compareResults(recorded, await freshRun(withoutTouch(experiment)));
    });

    it("names the experiment, ablation, metric, scenario, ask and seed, and the size of the change", () => {
      expect(lines).toContain("core: ablation full, metric recall_any@1, scenario touch-keeps-fact-alive, ask door-code, seed 1: 1 → 0 (−1)");
      // The results record each ablation's policy, so the definition itself is reported changed.
      expect(lines[0]).toBe("core: the experiment definition changed (ablations, seeds, scenarios or asks)");
      for (const line of lines.slice(1)) expect(line.startsWith("core: ablation ")).toBe(true);
    });

    it("reports the shift of each changed metric's mean", () => {
      expect(lines.some((l) => /^core: ablation full, metric recall_any@1: mean [\d.]+ → [\d.]+ \(−[\d.]+\)$/.test(l))).toBe(true);
    });

    it("leaves the no-touch ablation out: its policy did not change", () => {
      expect(lines.filter((l) => l.includes("ablation no-touch,"))).toEqual([]);
    });
  });
});

describe("compareResults, line by line", () => {
  const changed = (edit: (r: ExperimentResults) => void) => {
    const copy = structuredClone(recorded);
    edit(copy);
    return compareResults(recorded, copy);
  };
  const firstAsk = () => {
    const trial = recorded.trials[0];
    return { trial, ask: trial.asks[0] };
  };

  it("ignores the recording run's own fields (commit, dirtiness, wall time)", () => {
    expect(
      changed((r) => {
        r.manifest.gitCommit = "another";
        r.manifest.gitDirty = !r.manifest.gitDirty;
        r.manifest.wallTimeMs += 1000;
      }),
    ).toEqual([]);
  });

  it("reports a changed manifest field with its values", () => {
    expect(changed((r) => (r.manifest.tokenizerSha256 = "f".repeat(64)))).toEqual([
      `core: manifest tokenizerSha256 changed: "${recorded.manifest.tokenizerSha256}" → "${"f".repeat(64)}"`,
    ]);
  });

  it("reports a changed gold rank on every metric it moves, with signed sizes", () => {
    const { trial, ask } = firstAsk();
    const lines = changed((r) => {
      r.trials[0].asks[0].ranks = ask.ranks.map(() => null);
      r.trials[0].asks[0].tokens = ask.tokens + 3;
    });
    const where = `scenario ${trial.scenario}, ask ${ask.ask}, seed ${trial.seed}`;
    expect(lines).toContain(`core: ablation ${trial.ablation}, metric mrr, ${where}: 1 → 0 (−1)`);
    expect(lines).toContain(`core: ablation ${trial.ablation}, metric tokens, ${where}: ${ask.tokens} → ${ask.tokens + 3} (+3)`);
    expect(lines.some((l) => l.startsWith(`core: ablation ${trial.ablation}, metric mrr: mean `))).toBe(true);
  });

  it("reports a change of kept ids or scores that moves no metric", () => {
    const { trial, ask } = firstAsk();
    expect(ask.detail).toBeDefined();
    const lines = changed((r) => r.trials[0].asks[0].detail!.kept.reverse());
    expect(lines).toEqual([`core: ablation ${trial.ablation}, scenario ${trial.scenario}, ask ${ask.ask}, seed ${trial.seed}: kept ids or score breakdown changed`]);
  });

  it("reports trials that are new and trials that are gone", () => {
    const { trial } = firstAsk();
    const lines = changed((r) => (r.trials[0].seed = 99));
    expect(lines).toContain(`core: ablation ${trial.ablation}, scenario ${trial.scenario}, seed 99: not in the recorded results`);
    expect(lines).toContain(`core: ablation ${trial.ablation}, scenario ${trial.scenario}, seed ${trial.seed}: recorded but not produced any more`);
  });

  it("reports a changed experiment definition", () => {
    expect(changed((r) => (r.experiment.description = "edited"))).toEqual(["core: the experiment definition changed (ablations, seeds, scenarios or asks)"]);
  });

  it("says when results differ only in layout, so a reader knows to re-record rather than to look for a regression", () => {
    expect(changed((r) => r.trials.reverse())).toEqual(["core: results differ from the recording in formatting only; re-record with --update"]);
  });
});
