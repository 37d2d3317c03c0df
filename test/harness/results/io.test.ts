import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { parseResults, readResults, serialiseResults, stableContent, writeResults } from "../../../src/harness/results/io.js";
import { type ExperimentResults, VOLATILE_MANIFEST_FIELDS } from "../../../src/harness/results/types.js";
import { useTempDir } from "../temp-files.js";
import { runTiny, writeTinyExperiment } from "../tiny-experiment.js";
import { FileError } from "../../../src/shared/errors.js";
import { userError } from "../../helpers/user-error.js";

const temp = useTempDir();
let withDetail: ExperimentResults;
let withoutDetail: ExperimentResults;

beforeAll(async () => {
  withDetail = await runTiny(writeTinyExperiment(temp, { name: "rows" }));
  withoutDetail = await runTiny(writeTinyExperiment(temp, { name: "columns", detail: false }));
  // Give one ask a leak, so the columnar form has to store one.
  withoutDetail.trials[0].asks[0].leaked = ["stale-memory"];
});


describe("serialiseResults and parseResults", () => {
  it("round-trip results whose asks carry detail, stored one line per ask", () => {
    expect(withDetail.trials[0].asks[0].detail).toBeDefined();
    const text = serialiseResults(withDetail);
    expect(parseResults("rows.json", text)).toEqual(withDetail);
    expect(serialiseResults(parseResults("rows.json", text))).toBe(text);
    const askLines = text.split("\n").filter((line) => line.startsWith('      {"ask":'));
    expect(askLines).toHaveLength(withDetail.trials.reduce((n, t) => n + t.asks.length, 0));
  });

  it("round-trip results without detail, stored as columns, one line per trial", () => {
    expect(withoutDetail.trials[0].asks[0].detail).toBeUndefined();
    const text = serialiseResults(withoutDetail);
    const trialLines = text.split("\n").filter((line) => line.startsWith('    {"scenario":'));
    expect(trialLines).toHaveLength(withoutDetail.trials.length);
    for (const line of trialLines) expect(line).toMatch(/"columns":\{"ranks":.*\}\},?$/);
    const leakingAsk = withoutDetail.trials[0].asks[0].ask;
    expect(trialLines[0]).toContain(`"leaked":{"${leakingAsk}":["stale-memory"]}`);
    const parsed = parseResults("columns.json", text);
    expect(parsed).toEqual(withoutDetail);
    expect(serialiseResults(parsed)).toBe(text);
  });

  it("end with a newline and parse as plain JSON", () => {
    const text = serialiseResults(withDetail);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text).format).toBe("recollect-results/2");
  });
});

describe("stableContent", () => {
  it("ignores the fields that describe the recording run, and only those", () => {
    expect(VOLATILE_MANIFEST_FIELDS).toEqual(["gitCommit", "gitDirty", "node", "wallTimeMs", "ablationWallTimeMs", "sweepWallTimeMs"]);
    const rerun = {
      ...withDetail,
      manifest: { ...withDetail.manifest, gitCommit: "abcdef", gitDirty: true, node: "v20.99.0", wallTimeMs: 12_345, ablationWallTimeMs: 10, sweepWallTimeMs: 90 },
    };
    expect(stableContent(rerun)).toBe(stableContent(withDetail));
    expect(serialiseResults(rerun)).not.toBe(serialiseResults(withDetail));
    const otherTokenizer = { ...withDetail, manifest: { ...withDetail.manifest, tokenizerSha256: "f".repeat(64) } };
    expect(stableContent(otherTokenizer)).not.toBe(stableContent(withDetail));
  });
});

describe("writeResults", () => {
  it("writes new results, then leaves the file untouched when only the run's own fields differ", () => {
    const file = temp.path("written/results.json");
    expect(writeResults(file, withDetail)).toBe("written");
    const before = readFileSync(file, "utf8");
    expect(before).toBe(serialiseResults(withDetail));

    const rerun = { ...withDetail, manifest: { ...withDetail.manifest, gitCommit: "fedcba", wallTimeMs: 999 } };
    expect(writeResults(file, rerun)).toBe("unchanged");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("rewrites the file when a result changed", () => {
    const file = temp.path("changed.json");
    writeResults(file, withDetail);
    const changed = structuredClone(withDetail);
    changed.trials[0].asks[0].tokens += 1;
    expect(writeResults(file, changed)).toBe("written");
    expect(readResults(file)).toEqual(changed);
  });

  it("replaces a corrupt file rather than failing on it", () => {
    const file = temp.write("corrupt-before-write.json", "{ not json");
    expect(writeResults(file, withDetail)).toBe("written");
    expect(readResults(file)).toEqual(withDetail);
  });
});

describe("readResults", () => {
  it("gives undefined when nothing is recorded yet", () => {
    expect(readResults(temp.path("never-written.json"))).toBeUndefined();
  });

  describe("refuses a corrupt file with a RecollectError naming it", () => {
    it("text that is not JSON", () => {
      const file = temp.write("truncated.json", serialiseResults(withDetail).slice(0, 200));
      const error = userError(() => readResults(file));
      expect(error.message).toMatch(new RegExp(`^${escape(file)}: not valid JSON \\(.*\\); re-record it with \`npm run experiment\`$`));
      expect(error).toBeInstanceOf(FileError);
      expect((error as FileError).file).toBe(file);
      expect(error.cause).toBeInstanceOf(SyntaxError);
    });

    it("JSON of another shape, at the path that is wrong", () => {
      const raw = JSON.parse(serialiseResults(withDetail));
      raw.format = "another-tool/1";
      const wrongFormat = temp.write("format.json", JSON.stringify(raw));
      expect(userError(() => readResults(wrongFormat)).message).toMatch(new RegExp(`^${escape(wrongFormat)}: at format: `));

      const missingField = JSON.parse(serialiseResults(withDetail));
      delete missingField.manifest.experimentHash;
      const file = temp.write("manifest.json", JSON.stringify(missingField));
      expect(userError(() => readResults(file)).message).toMatch(new RegExp(`^${escape(file)}: at manifest\\.experimentHash: `));
    });

    it("a file of an older or a newer results format, saying what to do", () => {
      const raw = JSON.parse(serialiseResults(withDetail));
      raw.format = "recollect-results/1";
      const older = temp.write("older.json", JSON.stringify(raw));
      expect(userError(() => readResults(older)).message).toBe(
        `${older}: was recorded in an older results format (recollect-results/1); re-record it with \`npm run check -- --update\``,
      );
      raw.format = "recollect-results/99";
      const newer = temp.write("newer.json", JSON.stringify(raw));
      expect(userError(() => readResults(newer)).message).toBe(
        `${newer}: was recorded by a newer recollect (recollect-results/99); update recollect to read it`,
      );
    });

    it("columns that do not hold one entry per ask", () => {
      const raw = JSON.parse(serialiseResults(withoutDetail));
      const index = raw.trials.findIndex((t: { scenario: string }) => t.scenario === "per-kind-demo");
      raw.trials[index].columns.ranks.pop();
      const file = temp.write("columns.json", JSON.stringify(raw));
      expect(userError(() => readResults(file)).message).toBe(`${file}: at trials[${index}].columns: expected 2 entries per column, one per ask`);
    });

    it("an experiment name that is not a plain slug, since it becomes file names and links", () => {
      const raw = JSON.parse(serialiseResults(withDetail));
      raw.experiment.name = "../../../../outside/evil";
      const file = temp.write("climbing.json", JSON.stringify(raw));
      expect(userError(() => readResults(file)).message).toBe(`${file}: at experiment.name: use lower-case letters, digits and dashes`);

      const family = JSON.parse(serialiseResults(withDetail));
      family.experiment.family = "a/b";
      const other = temp.write("family.json", JSON.stringify(family));
      expect(userError(() => readResults(other)).message).toBe(`${other}: at experiment.family: use lower-case letters, digits and dashes`);
    });

    it("a trial of a scenario the experiment does not list", () => {
      const raw = JSON.parse(serialiseResults(withoutDetail));
      raw.trials[0].scenario = "renamed";
      const file = temp.write("renamed.json", JSON.stringify(raw));
      expect(userError(() => readResults(file)).message).toBe(`${file}: at trials[0].scenario: "renamed" is not a scenario of the experiment`);
    });
  });
});

describe("the file on disk", () => {
  it("is what serialiseResults gives, so a diff of two recordings points at what changed", () => {
    const file = temp.path("disk.json");
    writeResults(file, withoutDetail);
    const changed = structuredClone(withoutDetail);
    changed.trials[2].asks[0].tokens += 5;
    const before = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, serialiseResults(changed));
    const after = readFileSync(file, "utf8").split("\n");
    const differing = before.filter((line, i) => line !== after[i]);
    expect(differing).toHaveLength(1);
    expect(differing[0]).toContain(`"seed":${changed.trials[2].seed}`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
