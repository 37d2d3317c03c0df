import { describePolicy } from "../../../src/harness/policy/describe.js";
import { describe, expect, it } from "vitest";
import { fullPolicy, streamPreset } from "../../../src/memory/index.js";
import { loadExperiment } from "../../../src/harness/experiment/load.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";
import { UserError } from "../../../src/shared/errors.js";
import { useTempDir } from "../temp-files.js";

const temp = useTempDir();

const scenarioYaml = (name: string, text = "The user likes tea.") =>
  [
    `name: ${name}`,
    "description: a one-ask scenario",
    "steps:",
    `  - remember: { id: fact, kind: semantic, text: "${text}" }`,
    '  - ask: { id: q, query: "What does the user like?", expect: [fact] }',
  ].join("\n");

const teaFile = temp.write("scenarios/tea.yaml", scenarioYaml("tea"));
const coffeeFile = temp.write("scenarios/coffee.yaml", scenarioYaml("coffee", "The user likes coffee."));
/** The tea scenario with a vector on its memory and its ask, for policies that rank by embedding. */
const vectorsFile = temp.write(
  "scenarios-vectors/vectors.yaml",
  scenarioYaml("vectors").replace('text: "The user likes tea." }', 'text: "The user likes tea.", embedding: [1, 0] }').replace("expect: [fact] }", "expect: [fact], embedding: [1, 0] }"),
);

let counter = 0;
/** Writes an experiment file: the given lines after a valid name and description. */
function experimentFile(...lines: string[]): string {
  return temp.write(`experiments/e${++counter}.yaml`, ["name: spec", "description: an experiment under test", ...lines].join("\n"));
}
const valid = (...overrides: string[]) => {
  const keys = new Set(overrides.map((l) => l.split(":")[0]));
  const defaults = [`scenarios: [${JSON.stringify(teaFile)}]`, "ablations: [full, no-touch]", "seeds: [1]"].filter((l) => !keys.has(l.split(":")[0]));
  return experimentFile(...defaults, ...overrides);
};

/** The message of the UserError that loading `file` throws. */
function loadError(file: string): string {
  try {
    loadExperiment(file);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).message;
  }
  throw new Error(`expected ${file} to be refused`);
}

describe("loadExperiment", () => {
  it("resolves ablations over the base policy, the baseline first, then in file order", () => {
    const file = valid(
      "baseline: no-touch",
      "ablations:",
      "  - full",
      "  - no-touch",
      "  - name: slow-decay",
      "    description: facts and episodes decay slowly",
      "    from: no-touch",
      "    patch: { score: { decayRate: 0.999 } }",
    );
    const experiment = loadExperiment(file);
    expect(experiment.file).toBe(file);
    expect(experiment.ablations.map((a) => a.name)).toEqual(["no-touch", "full", "slow-decay"]);
    expect(experiment.ablations[1].policy).toEqual(fullPolicy);
    expect(experiment.ablations[0].policy).toEqual({ ...fullPolicy, touch: false });
    expect(experiment.ablations[2]).toEqual({
      name: "slow-decay",
      // The description is generated from the patch, against the baseline: the base decay rate
      // only reaches the working section, which is ordered by time, so nothing changes at all.
      // The file's own description, which claims otherwise, is kept as the author's note.
      description: "no change",
      note: "facts and episodes decay slowly",
      policy: { ...fullPolicy, touch: false, score: { ...fullPolicy.score, decayRate: 0.999 } },
    });
    expect(experiment.ablations[0].description).toBe(describePolicy(experiment.ablations[0].policy));
    expect(experiment.ablations[1].description).toBe("touch off → on");
  });

  it("fills in the defaults: policy full, baseline full, no variation, k 1, 3 and 5, detail on", () => {
    const { spec } = loadExperiment(valid());
    expect(spec).toMatchObject({
      policy: "full",
      baseline: "full",
      variation: { jitter: 0, distractors: 0, shuffle: false, importanceNoise: 0 },
      k: [1, 3, 5],
      matchSource: false,
      detail: true,
    });
  });

  it("applies the policy patch to the chosen preset before any ablation", () => {
    const experiment = loadExperiment(
      valid(`scenarios: [${JSON.stringify(vectorsFile)}]`, "policy: stream", "policyPatch: { pooled: { limit: 3 } }", "ablations: [full, no-touch]"),
    );
    const base = applyPatch(streamPreset, { pooled: { limit: 3 } });
    expect(experiment.ablations[0].policy).toEqual(base);
    expect(experiment.ablations[1].policy).toEqual({ ...base, touch: false });
  });

  it("expands scenario globs in sorted order and reads each file once", () => {
    const experiment = loadExperiment(valid(`scenarios: [${JSON.stringify(temp.path("scenarios/*.yaml"))}, ${JSON.stringify(teaFile)}]`));
    expect(experiment.scenarios.map((s) => s.origin)).toEqual([coffeeFile, teaFile]);
    expect(experiment.scenarios.map((s) => s.spec.name)).toEqual(["coffee", "tea"]);
  });

  it("reads a file named twice in different spellings once", () => {
    const experiment = loadExperiment(valid(`scenarios: [${JSON.stringify(teaFile)}, ${JSON.stringify(teaFile.replace("/scenarios/", "/scenarios/./"))}]`));
    expect(experiment.scenarios.map((s) => s.origin)).toEqual([teaFile]);
  });

  it("hashes the experiment with its scenarios: editing a scenario changes the hash, reloading does not", () => {
    const own = temp.write("scenarios-hash/own.yaml", scenarioYaml("own"));
    const file = valid(`scenarios: [${JSON.stringify(own)}]`);
    const before = loadExperiment(file).hash;
    expect(loadExperiment(file).hash).toBe(before);
    temp.write("scenarios-hash/own.yaml", scenarioYaml("own", "The user likes green tea."));
    expect(loadExperiment(file).hash).not.toBe(before);
    expect(loadExperiment(file).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  describe("refuses a bad file with one message naming the file and the path inside it", () => {
    it("an unknown ablation name", () => {
      const file = valid("ablations: [full, no-tuch]");
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at ablations\\[1\\]: unknown ablation "no-tuch" \\(known: full, relevance-only, .*no-touch`));
    });

    it("an unknown ablation to start a custom one from", () => {
      const file = valid("ablations: [full, { name: mine, from: no-such, patch: {} }]");
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at ablations\\[1\\]\\.from: unknown ablation "no-such"`));
    });

    it("an unknown key inside a custom ablation's patch", () => {
      const file = valid("ablations: [full, { name: mine, patch: { score: { wieghts: [1, 0, 0] } } }]");
      expect(loadError(file)).toBe(`${file}: at ablations[1].patch.score: unknown key "wieghts"`);
    });

    it("a wrongly typed value inside a custom ablation's patch, reported at that value rather than as 'expected string'", () => {
      const file = valid('ablations: [full, { name: mine, patch: { touch: "no" } }]');
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at ablations\\[1\\]: patch\\.touch: .*expected boolean, received string$`));
    });

    it("an unknown key in the base policy patch", () => {
      const file = valid("policyPatch: { touchh: false }");
      expect(loadError(file)).toBe(`${file}: at policyPatch: unknown key "touchh"`);
    });

    it("an unknown top-level key", () => {
      const file = valid("seed: [1]");
      expect(loadError(file)).toBe(`${file}: at (top level): unknown key "seed"`);
    });

    it("the same ablation twice", () => {
      const file = valid("ablations: [full, no-touch, no-touch]");
      expect(loadError(file)).toBe(`${file}: at ablations[2]: duplicate ablation "no-touch"`);
    });

    it("a baseline that is not one of the ablations", () => {
      const file = valid("baseline: pooled");
      expect(loadError(file)).toBe(`${file}: at baseline: "pooled" is not one of the experiment's ablations`);
    });

    it("a missing scenario file", () => {
      const missing = temp.path("scenarios/nope.yaml");
      const file = valid(`scenarios: [${JSON.stringify(teaFile)}, ${JSON.stringify(missing)}]`);
      expect(loadError(file)).toBe(`${file}: at scenarios[1]: scenario file "${missing}" not found`);
    });

    it("a scenario glob that matches nothing", () => {
      const pattern = temp.path("nowhere/*.yaml");
      const file = valid(`scenarios: [${JSON.stringify(pattern)}]`);
      expect(loadError(file)).toBe(`${file}: at scenarios[0]: no scenario file matches "${pattern}"`);
    });

    it("seeds given as a word", () => {
      const file = valid('seeds: "five"');
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at seeds: .*expected array, received string$`));
    });

    it("no seeds at all", () => {
      const file = valid("seeds: []");
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at seeds: `));
    });

    it("a variation outside its range", () => {
      const file = valid("variation: { jitter: 2 }");
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at variation\\.jitter: `));
    });

    it("a name that is not lower-case letters, digits and dashes", () => {
      const file = temp.write(
        "experiments/named.yaml",
        ["name: My_Experiment", "description: x", `scenarios: [${JSON.stringify(teaFile)}]`, "ablations: [full]", "seeds: [1]"].join("\n"),
      );
      expect(loadError(file)).toBe(`${file}: at name: use lower-case letters, digits and dashes`);
    });

    it("neither scenarios nor a dataset", () => {
      const file = experimentFile("ablations: [full]", "seeds: [1]");
      expect(loadError(file)).toBe(`${file}: at scenarios: an experiment needs scenarios or a dataset`);
    });

    it("a dataset when no importer was given", () => {
      const file = valid("dataset: { locomo: {} }");
      expect(loadError(file)).toBe(`${file}: at dataset: this command cannot import datasets`);
    });

    it("malformed YAML", () => {
      const file = experimentFile("ablations: [full", "seeds: [1]");
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: malformed YAML at line \\d+, column \\d+: `));
    });

    it("a bad scenario, naming the scenario's file rather than the experiment's", () => {
      const bad = temp.write("scenarios-bad/bad.yaml", scenarioYaml("bad").replace("expect: [fact]", "expect: [nothing]"));
      const file = valid(`scenarios: [${JSON.stringify(bad)}]`);
      expect(loadError(file)).toBe(`${bad}: at steps[1].ask.expect[0]: "nothing" is not a memory written before this ask`);
    });

    it("two scenarios with the same name", () => {
      const twin = temp.write("scenarios-twin/tea-again.yaml", scenarioYaml("tea"));
      const file = valid(`scenarios: [${JSON.stringify(teaFile)}, ${JSON.stringify(twin)}]`);
      expect(loadError(file)).toBe(`${twin}: scenario name "tea" is used by another scenario of ${file}`);
    });

    it("an ablation that ranks by embedding over a scenario whose asks carry no vector", () => {
      const file = valid("ablations: [full, { name: emb, patch: { score: { relevance: embedding } } }]");
      expect(loadError(file)).toBe(`${file}: at ablations: "emb" ranks by embedding, but ask "q" of scenario "tea" (${teaFile}) has no embedding to rank with`);
    });
  });

  it("accepts an embedding ablation when every ask has a vector", () => {
    const file = valid(`scenarios: [${JSON.stringify(vectorsFile)}]`, "ablations: [full, { name: emb, patch: { score: { relevance: embedding } } }]");
    expect(loadExperiment(file).ablations.map((a) => a.name)).toEqual(["full", "emb"]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
