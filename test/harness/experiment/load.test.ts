import { dirname } from "node:path";
import { describePolicy } from "../../../src/harness/policy/describe.js";
import { describe, expect, it } from "vitest";
import { fullPolicy, streamPreset } from "../../../src/memory/index.js";
import { type DatasetResolver, loadExperiment, loadExperiments } from "../../../src/harness/experiment/load.js";
import { MAX_SEEDS } from "../../../src/harness/experiment/schema.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";
import { serialisePolicyPreset } from "../../../src/harness/policy/preset-file.js";
import { RecollectError } from "../../../src/shared/errors.js";
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

/** The tea scenario with a vector on its memory only: its ask has none of its own. */
const halfVectorsFile = temp.write(
  "scenarios-half/half.yaml",
  scenarioYaml("half-vectors").replace('text: "The user likes tea." }', 'text: "The user likes tea.", embedding: [1, 0] }'),
);

let counter = 0;
/** Writes an experiment file: the given lines after a valid name and description. */
function experimentFile(...lines: string[]): string {
  return temp.write(`experiments/e${++counter}.yaml`, ["name: spec", "description: an experiment under test", ...lines].join("\n"));
}
/** Experiments live in experiments/ and the scenarios beside it, in scenarios/: outside, so allowed explicitly. */
const valid = (...overrides: string[]) => {
  const keys = new Set(overrides.map((l) => l.split(":")[0]));
  const defaults = ["scenarios: [../scenarios/tea.yaml]", "allowOutside: true", "ablations: [full, no-touch]", "seeds: [1]"].filter(
    (l) => !keys.has(l.split(":")[0]),
  );
  return experimentFile(...defaults, ...overrides);
};

/** The message of the RecollectError that loading `file` throws. */
async function loadError(file: string, importDataset?: DatasetResolver): Promise<string> {
  const error = await loadExperiment(file, importDataset).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${file} to be refused`).toBeInstanceOf(RecollectError);
  return (error as RecollectError).message;
}

describe("loadExperiment", () => {
  it("resolves ablations over the base policy, the baseline first, then in file order", async () => {
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
    const experiment = await loadExperiment(file);
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
      system: { type: "recollect", policy: { ...fullPolicy, touch: false, score: { ...fullPolicy.score, decayRate: 0.999 } } },
      writeBack: true,
      // Systems would be told the full policy's total section quota.
      budget: 168,
    });
    expect(experiment.ablations[0].description).toBe(describePolicy(experiment.ablations[0].policy!));
    expect(experiment.ablations[1].description).toBe("touch off → on");
  });

  it("fills in the defaults: policy full, baseline full, no variation, k 1, 3 and 5, detail on", async () => {
    const { spec } = await loadExperiment(valid());
    expect(spec).toMatchObject({
      policy: "full",
      baseline: "full",
      variation: { jitter: 0, distractors: 0, shuffle: false, importanceNoise: 0 },
      k: [1, 3, 5],
      matchSource: false,
      detail: true,
    });
  });

  it("applies the policy patch to the chosen preset before any ablation", async () => {
    const experiment = await loadExperiment(
      valid(`scenarios: [${JSON.stringify(vectorsFile)}]`, "policy: stream", "policyPatch: { pooled: { limit: 3 } }", "ablations: [full, no-touch]"),
    );
    // The stream preset ranks by embedding, so its policies name the experiment's model (use-lite by default).
    const base = applyPatch(streamPreset, { pooled: { limit: 3 }, score: { embeddingModel: "use-lite" } });
    expect(experiment.ablations[0].policy).toEqual(base);
    expect(experiment.ablations[1].policy).toEqual({ ...base, touch: false });
  });

  it("expands scenario globs in sorted order and reads each file once", async () => {
    const experiment = await loadExperiment(valid(`scenarios: [${JSON.stringify(temp.path("scenarios/*.yaml"))}, ${JSON.stringify(teaFile)}]`));
    expect(experiment.scenarios.map((s) => s.origin)).toEqual([coffeeFile, teaFile]);
    expect(experiment.scenarios.map((s) => s.spec.name)).toEqual(["coffee", "tea"]);
  });

  it("reads a file named twice in different spellings once", async () => {
    const experiment = await loadExperiment(valid(`scenarios: [${JSON.stringify(teaFile)}, ${JSON.stringify(teaFile.replace("/scenarios/", "/scenarios/./"))}]`));
    expect(experiment.scenarios.map((s) => s.origin)).toEqual([teaFile]);
  });

  it("hashes the experiment with its scenarios: editing a scenario changes the hash, reloading does not", async () => {
    const own = temp.write("scenarios-hash/own.yaml", scenarioYaml("own"));
    const file = valid(`scenarios: [${JSON.stringify(own)}]`);
    const before = (await loadExperiment(file)).hash;
    expect((await loadExperiment(file)).hash).toBe(before);
    temp.write("scenarios-hash/own.yaml", scenarioYaml("own", "The user likes green tea."));
    expect((await loadExperiment(file)).hash).not.toBe(before);
    expect((await loadExperiment(file)).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  describe("refuses a bad file with one message naming the file and the path inside it", () => {
    it("an unknown ablation name", async () => {
      const file = valid("ablations: [full, no-tuch]");
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at ablations\\[1\\]: unknown ablation "no-tuch" \\(known: full, relevance-only, .*no-touch`));
    });

    it("an unknown ablation to start a custom one from", async () => {
      const file = valid("ablations: [full, { name: mine, from: no-such, patch: {} }]");
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at ablations\\[1\\]\\.from: unknown ablation "no-such"`));
    });

    it("an unknown key inside a custom ablation's patch", async () => {
      const file = valid("ablations: [full, { name: mine, patch: { score: { wieghts: [1, 0, 0] } } }]");
      expect(await loadError(file)).toBe(`${file}: at ablations[1].patch.score: unknown key "wieghts"`);
    });

    it("a wrongly typed value inside a custom ablation's patch, reported at that value rather than as 'expected string'", async () => {
      const file = valid('ablations: [full, { name: mine, patch: { touch: "no" } }]');
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at ablations\\[1\\]: patch\\.touch: .*expected boolean, received string$`));
    });

    it("an unknown key in the base policy patch", async () => {
      const file = valid("policyPatch: { touchh: false }");
      expect(await loadError(file)).toBe(`${file}: at policyPatch: unknown key "touchh"`);
    });

    it("an unknown top-level key", async () => {
      const file = valid("seed: [1]");
      expect(await loadError(file)).toBe(`${file}: at (top level): unknown key "seed"`);
    });

    it("the same ablation twice", async () => {
      const file = valid("ablations: [full, no-touch, no-touch]");
      expect(await loadError(file)).toBe(`${file}: at ablations[2]: duplicate ablation "no-touch"`);
    });

    it("a baseline that is not one of the ablations", async () => {
      const file = valid("baseline: pooled");
      expect(await loadError(file)).toBe(`${file}: at baseline: "pooled" is not one of the experiment's ablations or systems`);
    });

    it("a missing scenario file, saying where paths start", async () => {
      const file = valid("scenarios: [../scenarios/tea.yaml, ../scenarios/nope.yaml]");
      expect(await loadError(file)).toBe(
        `${file}: at scenarios[1]: scenario file "../scenarios/nope.yaml" not found (paths are relative to the experiment file's folder, ${dirname(file)}/)`,
      );
    });

    it("a scenario glob that matches nothing", async () => {
      const file = valid("scenarios: [../nowhere/*.yaml]");
      expect(await loadError(file)).toBe(
        `${file}: at scenarios[0]: no scenario file matches "../nowhere/*.yaml" (paths are relative to the experiment file's folder, ${dirname(file)}/)`,
      );
    });

    it("a folder where a scenario file should be", async () => {
      const file = valid("scenarios: [../scenarios]");
      expect(await loadError(file)).toBe(`${file}: at scenarios[0]: scenario file "../scenarios" is a folder, not a file`);
    });

    it("seeds given as a word", async () => {
      const file = valid('seeds: "five"');
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at seeds: .*expected array, received string$`));
    });

    it("no seeds at all", async () => {
      const file = valid("seeds: []");
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at seeds: `));
    });

    it("a seed listed twice, which would rerun identical trials and count them twice", async () => {
      const file = valid("seeds: [1, 2, 1]");
      expect(await loadError(file)).toBe(`${file}: at seeds[2]: duplicate seed 1; list each seed once`);
    });

    it(`more than ${MAX_SEEDS} seeds`, async () => {
      const file = valid(`seeds: [${Array.from({ length: MAX_SEEDS + 1 }, (_, i) => i).join(", ")}]`);
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at seeds: at most ${MAX_SEEDS} seeds; `));
    });

    it(`exactly ${MAX_SEEDS} seeds, the limit itself`, async () => {
      const file = valid(`seeds: [${Array.from({ length: MAX_SEEDS }, (_, i) => i).join(", ")}]`);
      expect((await loadExperiment(file)).spec.seeds).toHaveLength(MAX_SEEDS);
    });

    it("a variation outside its range", async () => {
      const file = valid("variation: { jitter: 2 }");
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: at variation\\.jitter: `));
    });

    it("a name that is not lower-case letters, digits and dashes", async () => {
      const file = temp.write(
        "experiments/named.yaml",
        ["name: My_Experiment", "description: x", `scenarios: [${JSON.stringify(teaFile)}]`, "ablations: [full]", "seeds: [1]"].join("\n"),
      );
      expect(await loadError(file)).toBe(`${file}: at name: use lower-case letters, digits and dashes`);
    });

    it("neither scenarios nor a dataset", async () => {
      const file = experimentFile("ablations: [full]", "seeds: [1]");
      expect(await loadError(file)).toBe(`${file}: at scenarios: an experiment needs scenarios or a dataset`);
    });

    it("a dataset when no importer was given", async () => {
      const file = valid("dataset: { locomo: {} }");
      expect(await loadError(file)).toBe(`${file}: at dataset: this command cannot import datasets`);
    });

    it("malformed YAML", async () => {
      const file = experimentFile("ablations: [full", "seeds: [1]");
      expect(await loadError(file)).toMatch(new RegExp(`^${escape(file)}: malformed YAML at line \\d+, column \\d+: `));
    });

    it("a bad scenario, naming the scenario's file rather than the experiment's", async () => {
      const bad = temp.write("scenarios-bad/bad.yaml", scenarioYaml("bad").replace("expect: [fact]", "expect: [nothing]"));
      const file = valid(`scenarios: [${JSON.stringify(bad)}]`);
      expect(await loadError(file)).toBe(`${bad}: at steps[1].ask.expect[0]: "nothing" is not a memory written before this ask`);
    });

    it("two scenarios with the same name", async () => {
      const twin = temp.write("scenarios-twin/tea-again.yaml", scenarioYaml("tea"));
      const file = valid(`scenarios: [${JSON.stringify(teaFile)}, ${JSON.stringify(twin)}]`);
      expect(await loadError(file)).toBe(`${twin}: scenario name "tea" is used by another scenario of ${file}`);
    });

    it("an ablation that ranks by embedding over a scenario that writes vectors of its own but has an ask without one", async () => {
      const file = valid(`scenarios: [${JSON.stringify(halfVectorsFile)}]`, "ablations: [full, { name: emb, patch: { score: { relevance: embedding } } }]");
      expect(await loadError(file)).toBe(
        `${file}: at ablations: "emb" ranks by embedding, and scenario "half-vectors" (${halfVectorsFile}) writes vectors of its own, but its ask "q" has none to rank with`,
      );
    });

    it("an unknown key in the embedding settings", async () => {
      const file = valid("embedding: { modle: use-lite }");
      expect(await loadError(file)).toBe(`${file}: at embedding: unknown key "modle"`);
    });
  });

  it("accepts an embedding ablation when every ask has a vector", async () => {
    const file = valid(`scenarios: [${JSON.stringify(vectorsFile)}]`, "ablations: [full, { name: emb, patch: { score: { relevance: embedding } } }]");
    expect((await loadExperiment(file)).ablations.map((a) => a.name)).toEqual(["full", "emb"]);
  });
});

describe("an experiment's embedding model", () => {
  const ablation = (experiment: { ablations: { name: string }[] }, name: string) => experiment.ablations.find((a) => a.name === name) as Awaited<ReturnType<typeof loadExperiment>>["ablations"][number];

  it("is written into the policy of each ablation that ranks by embedding: use-lite unless the experiment names one", async () => {
    const experiment = await loadExperiment(valid("ablations: [full, embedding, relevance-only-hybrid]"));
    expect(experiment.spec.embedding).toEqual({ model: "use-lite" });
    for (const name of ["embedding", "relevance-only-hybrid"]) {
      const a = ablation(experiment, name);
      expect(a.embeddingModel).toBe("use-lite");
      expect(a.policy!.score.embeddingModel).toBe("use-lite");
      expect(a.system).toEqual({ type: "recollect", policy: a.policy });
    }
    // An ablation that ranks by words is left as it is.
    const full = ablation(experiment, "full");
    expect(full.policy).toEqual(fullPolicy);
    expect("embeddingModel" in full).toBe(false);
  });

  it("is the experiment's embedding.model when it names one, with the server's settings kept in the spec", async () => {
    const experiment = await loadExperiment(
      valid("ablations: [full, relevance-only-embedding]", "embedding: { model: ollama:nomic-embed-text, url: http://127.0.0.1:11434, timeoutMs: 5000 }"),
    );
    expect(experiment.spec.embedding).toEqual({ model: "ollama:nomic-embed-text", url: "http://127.0.0.1:11434", timeoutMs: 5000 });
    const a = ablation(experiment, "relevance-only-embedding");
    expect(a.embeddingModel).toBe("ollama:nomic-embed-text");
    expect(a.policy).toEqual({ ...fullPolicy, score: { ...fullPolicy.score, weights: [1, 0, 0], relevance: "embedding", embeddingModel: "ollama:nomic-embed-text" } });
  });

  it("is the policy's own when it names one, over the experiment's", async () => {
    const experiment = await loadExperiment(
      valid("embedding: { model: use-lite }", "ablations: [full, { name: mine, from: embedding, patch: { score: { embeddingModel: openai:text-embedding-3-small } } }]"),
    );
    const a = ablation(experiment, "mine");
    expect(a.embeddingModel).toBe("openai:text-embedding-3-small");
    expect(a.policy!.score.embeddingModel).toBe("openai:text-embedding-3-small");
  });

  it("refuses an unknown model id with one message naming the file and where it is written, whether or not an ablation uses it", async () => {
    const message = `unknown embedding model "word2vec": use use-lite (in this process, offline), ollama:<model> (an Ollama server) or openai:<model> (an OpenAI-compatible server)`;
    const file = valid("ablations: [full, embedding]", "embedding: { model: word2vec }");
    expect(await loadError(file)).toBe(`${file}: at embedding.model: ${message}`);
    const unused = valid("ablations: [full, no-touch]", "embedding: { model: word2vec }");
    expect(await loadError(unused)).toBe(`${unused}: at embedding.model: ${message}`);
    const own = valid("ablations: [full, { name: mine, from: embedding, patch: { score: { embeddingModel: nomic } } }]");
    expect(await loadError(own)).toMatch(new RegExp(`^${escape(own)}: at ablations\\[1\\] \\("mine"\\): unknown embedding model "nomic": `));
  });

  it("refuses a policy whose sections rank by two models", async () => {
    const file = valid(
      "ablations:",
      "  - full",
      "  - name: two",
      "    from: embedding",
      "    patch: { sections: { semantic: { score: { embeddingModel: ollama:a } }, episodic: { score: { embeddingModel: ollama:b } } } }",
    );
    expect(await loadError(file)).toBe(
      `${file}: at ablations[1] ("two"): the policy's sections rank by 2 embedding models (ollama:a, ollama:b); one query has one vector, so name one model`,
    );
  });

  it("is needed by every ask of a scenario with vectors of its own only when an ablation ranks by embedding", async () => {
    const words = await loadExperiment(valid(`scenarios: [${JSON.stringify(halfVectorsFile)}]`, "ablations: [full, no-touch]"));
    expect(words.scenarios.map((s) => s.spec.name)).toEqual(["half-vectors"]);
    const file = valid(`scenarios: [${JSON.stringify(halfVectorsFile)}]`, "ablations: [full, relevance-only-hybrid]");
    expect(await loadError(file)).toMatch(/"relevance-only-hybrid" ranks by embedding, and scenario "half-vectors" .* its ask "q" has none to rank with$/);
    // A scenario without vectors of its own is embedded by the model, asks and all.
    const plain = await loadExperiment(valid("ablations: [full, embedding]"));
    expect(plain.scenarios.map((s) => s.spec.name)).toEqual(["tea"]);
  });

  describe("in a sweep", () => {
    it("is written into each point that ranks by embedding, and named as the sweep's", async () => {
      const experiment = await loadExperiment(valid("sweep: { grid: { score.relevance: [words, embedding] }, objective: { metric: mrr } }"));
      const { points, embeddingModel } = experiment.sweep!;
      expect(embeddingModel).toBe("use-lite");
      expect(points.map((p) => [p.policy.score.relevance, p.policy.score.embeddingModel])).toEqual([
        ["words", undefined],
        ["embedding", "use-lite"],
      ]);
    });

    it("is absent when no point ranks by embedding", async () => {
      const experiment = await loadExperiment(valid("sweep: { grid: { score.decayRate: [0.9, 0.99] }, objective: { metric: mrr } }"));
      expect(experiment.sweep!.embeddingModel).toBeUndefined();
    });

    it("refuses points that rank by two models, and an unknown model, naming the point", async () => {
      const two = valid("policyPatch: { score: { relevance: embedding } }", "sweep: { grid: { score.embeddingModel: [ollama:a, ollama:b] }, objective: { metric: mrr } }");
      expect(await loadError(two)).toBe(`${two}: at sweep: the points rank by 2 embedding models (ollama:a, ollama:b); sweep one at a time`);
      const unknown = valid("policyPatch: { score: { relevance: embedding } }", "sweep: { grid: { score.embeddingModel: [word2vec] }, objective: { metric: mrr } }");
      expect(await loadError(unknown)).toMatch(new RegExp(`^${escape(unknown)}: at sweep \\(point p001\\): unknown embedding model "word2vec"`));
    });
  });
});

describe("an experiment's policy from a preset file", () => {
  it("starts from the preset's policy, found from the experiment file's folder, and hashes its text", async () => {
    const policy = applyPatch(fullPolicy, { score: { weights: [2, 0.5, 0] }, touch: false });
    const preset = temp.write("experiments/chosen.preset.json", serialisePolicyPreset({ name: "chosen", description: "a sweep's choice", policy }));
    const experiment = await loadExperiment(valid("policy: { file: chosen.preset.json }"));
    expect(experiment.ablations[0].policy).toEqual(policy);
    expect(experiment.ablations[1].policy).toEqual({ ...policy, touch: false });
    const again = await loadExperiment(valid("policy: { file: chosen.preset.json }"));
    temp.write("experiments/chosen.preset.json", serialisePolicyPreset({ name: "chosen", description: "edited", policy }));
    const edited = await loadExperiment(valid("policy: { file: chosen.preset.json }"));
    expect(edited.hash).not.toBe(again.hash);
    expect(preset).toContain("chosen.preset.json");
  });

  it("refuses a file that is not a policy preset, naming it", async () => {
    temp.write("experiments/not-a-preset.json", '{"format": "something-else"}');
    expect(await loadError(valid("policy: { file: not-a-preset.json }"))).toMatch(/not-a-preset\.json: at format/);
  });
});

describe("an experiment's sweep", () => {
  it("resolves its points over the experiment's base policy, after the policy patch", async () => {
    const experiment = await loadExperiment(
      valid("policyPatch: { writeBack: false }", "sweep: { grid: { score.decayRate: [0.9, 0.99] }, objective: { metric: recall_any@1 }, touch: off }"),
    );
    const points = experiment.sweep!.points;
    expect(points.map((p) => p.policy.score.decayRate)).toEqual([0.9, 0.99]);
    expect(points.every((p) => !p.policy.writeBack && !p.policy.touch)).toBe(true);
  });

  it("refuses an objective that is not one of the experiment's metrics", async () => {
    expect(await loadError(valid("k: [1, 3]", "sweep: { grid: { score.decayRate: [0.9] }, objective: { metric: recall_any@5 } }"))).toMatch(
      /at sweep\.objective\.metric: "recall_any@5" is not a metric for k 1, 3/,
    );
  });

  it("refuses invalid points, listing them", async () => {
    expect(await loadError(valid("sweep: { grid: { score.decayRate: [0.9, 7] }, objective: { metric: mrr } }"))).toMatch(
      /at sweep: 1 of 2 points are not valid policies: p002 \(score\.decayRate 7\)/,
    );
  });
});

describe("paths in an experiment file", () => {
  const own = temp.write("paths/experiments/own/tea.yaml", scenarioYaml("own-tea"));
  temp.write("paths/experiments/own/deeper/coffee.yaml", scenarioYaml("own-coffee", "The user likes coffee."));
  const data = temp.write("paths/experiments/data/talks.jsonl", "{}\n");
  temp.write("paths/outside.jsonl", "{}\n");
  const inPaths = (name: string, ...lines: string[]) =>
    temp.write(`paths/experiments/${name}.yaml`, [`name: ${name}`, "description: paths under test", "ablations: [full]", "seeds: [1]", ...lines].join("\n"));
  /** An importer that only records what it was handed. */
  const recording = () => {
    const calls: unknown[] = [];
    const importer: DatasetResolver = async (dataset) => {
      calls.push(dataset);
      return { scenarios: [], datasets: [], importStats: undefined };
    };
    return { calls, importer };
  };

  it("start from the experiment file's folder, for files and globs, wherever the command runs", async () => {
    const file = inPaths("relative", "scenarios: [own/tea.yaml, own/**/*.yaml]");
    const experiment = await loadExperiment(file);
    expect(experiment.scenarios.map((s) => s.spec.name)).toEqual(["own-tea", "own-coffee"]);
    expect(experiment.scenarios[0].origin).toBe(own);
  });

  it("refuse a scenario path or glob outside the folder unless the experiment allows it", async () => {
    const literal = inPaths("outside-literal", "scenarios: [../../scenarios/tea.yaml]");
    expect(await loadError(literal)).toBe(
      `${literal}: at scenarios[0]: "../../scenarios/tea.yaml" is outside the experiment file's folder; move it there, or set allowOutside: true to read it`,
    );
    const glob = inPaths("outside-glob", "scenarios: [../../scenarios/*.yaml]");
    expect(await loadError(glob)).toMatch(/at scenarios\[0\]: "\.\.\/\.\.\/scenarios\/\*\.yaml" is outside the experiment file's folder/);
    const absolute = inPaths("outside-absolute", `scenarios: [${JSON.stringify(teaFile)}]`);
    expect(await loadError(absolute)).toMatch(/is outside the experiment file's folder; move it there, or set allowOutside: true to read it$/);
    const allowed = inPaths("outside-allowed", "scenarios: [../../scenarios/*.yaml]", "allowOutside: true");
    expect((await loadExperiment(allowed)).scenarios.map((s) => s.spec.name)).toEqual(["coffee", "tea"]);
  });

  it.each(["/**/never-there.yaml", "/*/never-there.yaml", "../../../../../../../../../../../../*/never-there.yaml"])(
    "refuse %s, which would search the whole filesystem, even when outside paths are allowed",
    async (pattern) => {
      const file = inPaths(`root-${pattern.length}`, `scenarios: [${JSON.stringify(pattern)}]`, "allowOutside: true");
      expect(await loadError(file)).toBe(
        `${file}: at scenarios[0]: "${pattern}" would search the whole filesystem; name a folder before the first wildcard`,
      );
    },
  );

  it("hand the importer the dataset file found from the folder, and its path relative to the experiment file", async () => {
    const { calls, importer } = recording();
    const file = inPaths("dataset", "dataset: { format: conversations, path: data/talks.jsonl }");
    await loadExperiment(file, importer);
    expect(calls).toEqual([
      { format: "conversations", path: "data/talks.jsonl", observations: true, askSeed: 1, file: data, recorded: "data/talks.jsonl" },
    ]);
  });

  it("do not write a dataset's questions back unless the experiment asks to, while scenario experiments keep the preset's write-back", async () => {
    const { importer } = recording();
    const writeBack = async (name: string, ...lines: string[]) => (await loadExperiment(inPaths(name, ...lines), importer)).ablations.map((a) => a.writeBack);
    expect(await writeBack("questions-default", "dataset: { format: conversations, path: data/talks.jsonl }")).toEqual([false]);
    expect(await writeBack("questions-asked", "dataset: { format: conversations, path: data/talks.jsonl }", "policyPatch: { writeBack: true }")).toEqual([true]);
    expect(await writeBack("questions-scenarios", "scenarios: [own/tea.yaml]")).toEqual([true]);
  });

  it("run an experiment once per ask protocol it lists, each run named after its protocol", async () => {
    const protocols: unknown[] = [];
    const importer: DatasetResolver = async (_dataset, _file, protocol) => {
      protocols.push(protocol);
      return { scenarios: [], datasets: [], importStats: undefined };
    };
    const file = inPaths("protocols", "dataset: { format: conversations, path: data/talks.jsonl, protocols: [end, online], askSeed: 7 }");
    const runs = await loadExperiments(file, importer);
    expect(runs.map((r) => [r.spec.name, r.family, r.protocol])).toEqual([
      ["protocols-end", "protocols", "end"],
      ["protocols-online", "protocols", "online"],
    ]);
    expect(protocols).toEqual([
      { protocol: "end", seed: 7 },
      { protocol: "online", seed: 7 },
    ]);
    expect(runs[0].hash).not.toBe(runs[1].hash);
    expect(await loadError(file, importer)).toBe(`${file}: at dataset.protocols: this command runs one protocol at a time, and the file lists 2`);
  });

  it("run one protocol under the experiment's own name, end by default", async () => {
    const seen: string[] = [];
    const importer: DatasetResolver = async (_dataset, _file, protocol) => {
      seen.push(protocol.protocol);
      return { scenarios: [], datasets: [], importStats: undefined };
    };
    const one = await loadExperiments(inPaths("one-protocol", "dataset: { format: conversations, path: data/talks.jsonl, protocol: immediate }"), importer);
    expect(one.map((r) => [r.spec.name, r.protocol])).toEqual([["one-protocol", "immediate"]]);
    await loadExperiments(inPaths("default-protocol", "dataset: { format: conversations, path: data/talks.jsonl }"), importer);
    expect(seen).toEqual(["immediate", "end"]);
  });

  it("refuse both protocol and protocols, and a protocol listed twice", async () => {
    const both = inPaths("both", "dataset: { format: conversations, path: data/talks.jsonl, protocol: end, protocols: [online] }");
    expect(await loadError(both, recording().importer)).toMatch(/give protocol or protocols, not both/);
    const twice = inPaths("twice", "dataset: { format: conversations, path: data/talks.jsonl, protocols: [end, end] }");
    expect(await loadError(twice, recording().importer)).toMatch(/each protocol once/);
  });

  it("refuse a dataset outside the folder unless allowed, and a missing one", async () => {
    const { calls, importer } = recording();
    const outside = inPaths("dataset-outside", "dataset: { format: conversations, path: ../outside.jsonl }");
    expect(await loadError(outside, importer)).toBe(
      `${outside}: at dataset.path: "../outside.jsonl" is outside the experiment file's folder; move it there, or set allowOutside: true to read it`,
    );
    const missing = inPaths("dataset-missing", "dataset: { format: conversations, path: data/nope.jsonl }");
    expect(await loadError(missing, importer)).toBe(
      `${missing}: at dataset.path: data file "data/nope.jsonl" not found (paths are relative to the experiment file's folder, ${dirname(missing)}/)`,
    );
    const allowed = inPaths("dataset-allowed", "dataset: { format: conversations, path: ../outside.jsonl }", "allowOutside: true");
    await loadExperiment(allowed, importer);
    expect(calls).toMatchObject([{ recorded: "../outside.jsonl" }]);
  });

  it("say which dataset keys are wrong", async () => {
    const noPath = inPaths("dataset-no-path", "dataset: { format: conversations }");
    expect(await loadError(noPath)).toMatch(/: at dataset: path: .*expected string, received undefined$/);
    const otherFormat = inPaths("dataset-csv", "dataset: { format: csv, path: data/talks.jsonl }");
    expect(await loadError(otherFormat)).toMatch(/: at dataset: format: .*"conversations"/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
