import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLocomo } from "../../../src/datasets/locomo/load.js";
import { LOCOMO_COMMIT, LOCOMO_SHA256 } from "../../../src/datasets/locomo/messages.js";
import { fixtureSamples, writeTemp } from "./fixture.js";
import { FileError } from "../../../src/shared/errors.js";
import { userError } from "../../helpers/user-error.js";


const sha256Of = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("loadLocomo", () => {
  it("tells the user where to get a missing file and how to pass it", () => {
    const error = userError(() => loadLocomo("nowhere/locomo10.json"));
    expect(error.message).toBe(
      "nowhere/locomo10.json: LoCoMo data file not found. Download data/locomo10.json from the public " +
        `snap-research/LoCoMo repository on GitHub (commit ${LOCOMO_COMMIT}) and pass its path with --locomo PATH`,
    );
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).file).toBe("nowhere/locomo10.json");
  });

  it("refuses a file other than the pinned one, saying both hashes and how to accept it", () => {
    const path = writeTemp(fixtureSamples());
    const error = userError(() => loadLocomo(path));
    expect(error.message).toContain(`${path}: LoCoMo data file has sha256 ${sha256Of(path)}, expected ${LOCOMO_SHA256}`);
    expect(error.message).toContain("--accept-locomo-hash");
    expect(error.message).toContain("expectedSha256: false");
  });

  it("accepts another version when told to, and reports its hash", () => {
    const path = writeTemp(fixtureSamples());
    const loaded = loadLocomo(path, { expectedSha256: false });
    expect(loaded.sha256).toBe(sha256Of(path));
    expect(loaded.samples.map((s) => s.sampleId)).toEqual(["conv-a", "conv-b"]);
    expect(loadLocomo(path, { expectedSha256: sha256Of(path).toUpperCase() }).sha256).toBe(sha256Of(path));
  });

  it("checks the hash against an explicitly expected one", () => {
    const path = writeTemp(fixtureSamples());
    const other = "0".repeat(64);
    expect(userError(() => loadLocomo(path, { expectedSha256: other })).message).toContain(`expected ${other}.`);
  });

  it("names the file when it is not JSON", () => {
    const path = writeTemp("[{ not json");
    const error = userError(() => loadLocomo(path, { expectedSha256: false }));
    expect(error.message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: the LoCoMo data file is not valid JSON \\(`));
  });

  it("names the file and the path inside it when the JSON has the wrong shape", () => {
    const data = fixtureSamples();
    (data[0].qa[2] as { evidence: unknown }).evidence = "D1:1";
    const path = writeTemp(data);
    expect(userError(() => loadLocomo(path, { expectedSha256: false })).message).toContain(
      `${path}: not a LoCoMo data file: at [0].qa[2].evidence:`,
    );
  });

  it("names a directory given as the data file", () => {
    const dir = dirname(writeTemp("[]"));
    const error = userError(() => loadLocomo(dir));
    expect(error.message).toBe(`${dir}: is a directory, not a LoCoMo data file`);
  });
});
