import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildManifest } from "../../../src/harness/results/manifest.js";
import { repoPath } from "../temp-files.js";

describe("buildManifest", () => {
  const manifest = buildManifest({
    tokenizerSha256: "abc",
    datasets: [{ name: "LoCoMo", sha256: "def" }],
    experimentHash: "0123",
    wallTimeMs: 1234.6,
  });

  it("records the exact installed versions of the packages that shape results, as pinned", () => {
    const pins = JSON.parse(readFileSync(repoPath("package.json"), "utf8")).dependencies as Record<string, string>;
    for (const name of ["better-sqlite3", "@huggingface/tokenizers", "pure-rand", "vega-lite"]) {
      expect(manifest.packages[name], name).toBe(pins[name]);
    }
    expect(Object.values(manifest.packages)).not.toContain("unknown");
  });

  it("records the Node version, the inputs' hashes and the wall time in whole milliseconds", () => {
    expect(manifest).toMatchObject({
      node: process.version,
      tokenizerSha256: "abc",
      datasets: [{ name: "LoCoMo", sha256: "def" }],
      experimentHash: "0123",
      wallTimeMs: 1235,
    });
  });

  it("records the commit it was made from", () => {
    expect(manifest.gitCommit).toMatch(/^([0-9a-f]{40}|unknown)$/);
    expect(typeof manifest.gitDirty).toBe("boolean");
  });
});
