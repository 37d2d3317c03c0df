import { describe, expect, it } from "vitest";
import { ExperimentPaths, globBase } from "../../../src/harness/experiment/paths.js";

describe("globBase", () => {
  it("is the fixed folder before the first wildcard", () => {
    expect(globBase("../scenarios/*.yaml")).toBe("../scenarios");
    expect(globBase("scenarios/**/x/*.yaml")).toBe("scenarios");
    expect(globBase("*.yaml")).toBe(".");
    expect(globBase("{a,b}/x.yaml")).toBe(".");
    expect(globBase("/data/runs/*/x.yaml")).toBe("/data/runs");
  });

  it("is the filesystem root for a glob rooted at /", () => {
    expect(globBase("/**/x.yaml")).toBe("/");
    expect(globBase("/*/x.yaml")).toBe("/");
  });
});

describe("ExperimentPaths.recorded", () => {
  it("gives a path relative to the experiment's folder, with forward slashes", () => {
    const paths = new ExperimentPaths("work/bench/experiment.yaml", true);
    expect(paths.folder).toBe("work/bench");
    expect(paths.recorded("work/bench/data/talks.jsonl")).toBe("data/talks.jsonl");
    expect(paths.recorded("work/shared.jsonl")).toBe("../shared.jsonl");
  });
});

describe("ExperimentPaths.path", () => {
  it("resolves a path from the experiment's folder without requiring it to exist", () => {
    expect(new ExperimentPaths("work/bench/experiment.yaml", false).path("data/never-written.jsonl", "dataset.path")).toBe("work/bench/data/never-written.jsonl");
  });

  it("refuses a path outside the folder, as `file` does, unless the experiment allows it", () => {
    expect(() => new ExperimentPaths("work/bench/experiment.yaml", false).path("../shared.jsonl", "dataset.path")).toThrow(
      'work/bench/experiment.yaml: at dataset.path: "../shared.jsonl" is outside the experiment file\'s folder; move it there, or set allowOutside: true to read it',
    );
    expect(new ExperimentPaths("work/bench/experiment.yaml", true).path("../shared.jsonl", "dataset.path")).toBe("work/shared.jsonl");
  });
});
