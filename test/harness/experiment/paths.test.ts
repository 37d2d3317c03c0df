import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExperimentPaths, globBase } from "../../../src/harness/experiment/paths.js";
import { userError } from "../../helpers/user-error.js";
import { useTempDir } from "../temp-files.js";

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

describe("ExperimentPaths.file", () => {
  const temp = useTempDir("recollect-paths-");
  const paths = () => new ExperimentPaths(temp.path("experiment.yaml"), true);

  it("names a folder as a folder", () => {
    mkdirSync(temp.path("folder"));
    expect(userError(() => paths().file("folder", "dataset.path", "data file")).message).toBe(
      `${temp.path("experiment.yaml")}: at dataset.path: data file "folder" is a folder, not a file`,
    );
  });

  it.each([
    ["a FIFO, without opening it (which would wait for a writer)", () => (execFileSync("mkfifo", [temp.path("pipe")]), "pipe"), "a FIFO"],
    ["/dev/zero, which never ends", () => "/dev/zero", "a character device"],
  ])("says what is not a regular file: %s", (_name, make, kind) => {
    const written = make();
    expect(userError(() => paths().file(written, "dataset.path", "data file")).message).toBe(
      `${temp.path("experiment.yaml")}: at dataset.path: data file "${written}" is not a regular file (${kind})`,
    );
  });
});
