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
