import { describe, expect, it } from "vitest";
import { experimentFiles, loadOrSkip, resultsFile } from "../../../src/cli/commands/pipeline.js";
import { UserError } from "../../../src/shared/errors.js";
import { repoPath, useTempDir } from "../../harness/temp-files.js";

const temp = useTempDir();
const scenario = JSON.stringify(repoPath("scenarios/stream-example.yaml"));
const withDataset = temp.write(
  "locomo.yaml",
  ["name: locomo-spec", "description: needs the LoCoMo file", "dataset: { locomo: {} }", "ablations: [full]", "seeds: [1]"].join("\n"),
);
const plain = temp.write("plain.yaml", ["name: plain-spec", "description: files only", `scenarios: [${scenario}]`, "ablations: [full]", "seeds: [1]"].join("\n"));
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
});

describe("loadOrSkip", () => {
  it("loads an experiment that needs no dataset", () => {
    const loaded = loadOrSkip(plain, absentData, false);
    expect("skipped" in loaded).toBe(false);
  });

  it("skips, with the reason and what to do, an experiment whose dataset is absent when it was not named", () => {
    const loaded = loadOrSkip(withDataset, absentData, false);
    expect(loaded).toEqual({
      skipped: `the LoCoMo data file ${absentData.locomo} is absent (get locomo10.json from the public snap-research/LoCoMo repository and pass --locomo PATH)`,
    });
  });

  it("fails with a UserError naming the data file when that experiment was named explicitly", () => {
    let error: unknown;
    try {
      loadOrSkip(withDataset, absentData, true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toContain(absentData.locomo);
  });
});

describe("resultsFile", () => {
  it("puts an experiment's results at results/<name>.json", () => {
    expect(resultsFile("core")).toBe("results/core.json");
  });
});
