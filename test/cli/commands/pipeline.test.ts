import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  experimentFiles,
  importLines,
  isProjectExperiment,
  loadOrSkip,
  loadRuns,
  outputFor,
  recordedExperimentFile,
  resultsFile,
} from "../../../src/cli/commands/pipeline.js";
import { RecollectError, UsageError } from "../../../src/shared/errors.js";
import { repoPath, useTempDir } from "../../harness/temp-files.js";
import { userError } from "../../helpers/user-error.js";
import { conversation, writeJsonl } from "../../datasets/conversations/build.js";

const temp = useTempDir();
const scenario = JSON.stringify(repoPath("scenarios/stream-example.yaml"));
const withDataset = temp.write(
  "locomo.yaml",
  ["name: locomo-spec", "description: needs the LoCoMo file", "dataset: { locomo: {} }", "ablations: [full]", "seeds: [1]"].join("\n"),
);
const withFile = temp.write(
  "talks.yaml",
  ["name: talks", "description: needs its data file", "dataset: { format: conversations, path: data/talks.jsonl }", "ablations: [full]", "seeds: [1]"].join(
    "\n",
  ),
);
const plain = temp.write(
  "plain.yaml",
  ["name: plain-spec", "description: files only", `scenarios: [${scenario}]`, "allowOutside: true", "ablations: [full]", "seeds: [1]"].join("\n"),
);
const absentData = { locomo: temp.path("no-locomo10.json"), acceptLocomoHash: false };

describe("experimentFiles", () => {
  it("takes the files named, in the order given", () => {
    expect(experimentFiles(["b.yaml", "a.yaml"])).toEqual(["b.yaml", "a.yaml"]);
  });

  it("takes every experiment in experiments/ when none is named", () => {
    const files = experimentFiles([]);
    expect(files).toContain("experiments/core.yaml");
    expect(files).toEqual([...files].sort());
    for (const file of files) expect(file).toMatch(/^experiments\/[^/]+\.yaml$/);
  });

  it("refuses to run nothing: with none named, a folder without experiments/*.yaml is a usage error", () => {
    const error = userError(() => experimentFiles([], temp.path("no-experiments-here")));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe("no experiment file named, and this folder has no experiments/*.yaml to run by default: name the experiment files to run");
  });
});

describe("loadOrSkip", () => {
  it("loads an experiment that needs no dataset", async () => {
    const loaded = await loadOrSkip(plain, absentData, false);
    expect("skipped" in loaded).toBe(false);
  });

  it("skips, with the reason and what to do, an experiment whose dataset is absent when it was not named", async () => {
    expect(await loadOrSkip(withDataset, absentData, false)).toEqual({
      skipped: `the LoCoMo data file ${absentData.locomo} is absent (get locomo10.json from the public snap-research/LoCoMo repository and pass --locomo PATH)`,
    });
    expect(await loadOrSkip(withFile, absentData, false)).toEqual({ skipped: "its data file data/talks.jsonl is absent" });
  });

  it("fails with a RecollectError naming the data file when that experiment was named explicitly", async () => {
    const error = await loadOrSkip(withDataset, absentData, true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as RecollectError).message).toContain(absentData.locomo);
  });
});

describe("where an experiment's outputs go", () => {
  const cwd = temp.dir;

  it("into the project for its own experiments, experiments/*.yaml of the working folder", () => {
    expect(isProjectExperiment(join(cwd, "experiments/core.yaml"), cwd)).toBe(true);
    expect(isProjectExperiment(join(cwd, "experiments/sub/x.yaml"), cwd)).toBe(false);
    expect(outputFor(join(cwd, "experiments/core.yaml"), undefined, cwd)).toEqual({ dir: ".", project: true });
  });

  it("into recollect-out/ beside any other experiment file, or under --out", () => {
    expect(outputFor("mine/bench.yaml", undefined, cwd)).toEqual({ dir: "mine/recollect-out", project: false });
    expect(outputFor("mine/bench.yaml", "out", cwd)).toEqual({ dir: "out", project: false });
    expect(outputFor(join(cwd, "experiments/core.yaml"), "elsewhere", cwd)).toEqual({ dir: "elsewhere", project: false });
  });

  it("puts results at results/<name>.json under the output folder", () => {
    expect(resultsFile("core")).toBe("results/core.json");
    expect(resultsFile("bench", "mine/recollect-out")).toBe("mine/recollect-out/results/bench.json");
  });

  it("records the experiment file relative to the project, or by its name alone, never with a machine's folders", () => {
    expect(recordedExperimentFile(join(cwd, "experiments/core.yaml"), cwd)).toBe("experiments/core.yaml");
    expect(recordedExperimentFile(resolve("/somewhere/else/bench.yaml"), cwd)).toBe("bench.yaml");
  });
});

describe("importLines", () => {
  const talks = [conversation("a"), conversation("b", { questions: [{ id: "q1", text: "Who?", evidence: ["s1:1", "s9:9"], category: "multi-hop" }] })];
  writeJsonl(temp, "imports/talks.jsonl", talks);
  const importing = (name: string, ...lines: string[]) =>
    temp.write(`imports/${name}.yaml`, [`name: ${name}`, "description: imports talks.jsonl", "ablations: [full]", "seeds: [1]", ...lines].join("\n"));
  const both = importing("both", "dataset: { format: conversations, path: talks.jsonl, protocols: [end, online] }");
  const again = importing("again", "dataset: { format: conversations, path: talks.jsonl }");
  const fewer = importing("fewer", "dataset: { format: conversations, path: talks.jsonl, categories: [single-hop] }");

  it("says once what an import read and repaired, naming every run it serves, however many runs and files share it", async () => {
    const runs = (await loadRuns({ files: [both, again, fewer], ...absentData }, () => {})).map((run) => run.loaded);
    const experiments = runs.flatMap((run) => ("skipped" in run ? [] : [run]));
    expect(experiments.map((e) => e.spec.name)).toEqual(["both-end", "both-online", "again", "fewer"]);
    const lines = importLines(experiments);
    expect([...lines.keys()].map((e) => e.spec.name)).toEqual(["both-end", "fewer"]);
    expect([...lines.values()]).toEqual([
      "both-end, both-online, again: imported 2 conversations (turns: 6, observations: 2), asking 2 of 2 questions in 2 scenarios; " +
        "repaired evidence ids that name no imported turn: 1 (dropped)",
      "fewer: imported 2 conversations (turns: 3, observations: 1), asking 1 of 1 questions in 1 scenarios; repaired conversations left with no question: 1 (not run)",
    ]);
  });
});
