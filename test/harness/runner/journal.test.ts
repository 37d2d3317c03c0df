import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Trial } from "../../../src/harness/results/types.js";
import { trialKey } from "../../../src/harness/results/trial-key.js";
import { Journal } from "../../../src/harness/runner/journal.js";
import { useTempDir } from "../temp-files.js";

const temp = useTempDir();

const trial = (seed: number, tokens = 10): Trial => ({
  scenario: "scenario",
  ablation: "full",
  seed,
  asks: [{ ask: "q", ranks: [1, null], coverage: 0.5, leaked: [], tokens }],
});

describe("Journal", () => {
  it("is empty before anything is written, and creates its folder on the first append", () => {
    const journal = new Journal(temp.path("fresh/deep/run.ndjson"));
    expect(journal.load().size).toBe(0);
    journal.append(trial(1));
    expect(readFileSync(journal.file, "utf8")).toBe(`${JSON.stringify(trial(1))}\n`);
  });

  it("gives back every appended trial by its key, the last one winning", () => {
    const journal = new Journal(temp.path("keys.ndjson"));
    journal.append(trial(1));
    journal.append(trial(2));
    journal.append(trial(1, 99));
    const done = journal.load();
    expect([...done.keys()]).toEqual([trialKey(trial(1)), trialKey(trial(2))]);
    expect(done.get(trialKey(trial(1)))).toEqual(trial(1, 99));
  });

  it("ignores a torn last line left by a kill, and the trial after it lands on a line of its own", () => {
    const journal = new Journal(temp.path("torn.ndjson"));
    journal.append(trial(1));
    appendFileSync(journal.file, JSON.stringify(trial(2)).slice(0, 25));
    expect([...journal.load().keys()]).toEqual([trialKey(trial(1))]);

    // The resumed run appends; a second interruption must not lose what it wrote.
    journal.append(trial(3));
    expect([...new Journal(journal.file).load().keys()]).toEqual([trialKey(trial(1)), trialKey(trial(3))]);
  });

  it("keeps a last line that is whole but lacks its newline", () => {
    const journal = new Journal(temp.path("unterminated.ndjson"));
    writeFileSync(journal.file, JSON.stringify(trial(1)));
    expect(journal.load().size).toBe(1);
    journal.append(trial(2));
    expect(journal.load().size).toBe(2);
  });

  it("skips, with a warning naming the file and line, a line that is valid JSON but not a whole trial", () => {
    const journal = new Journal(temp.path("incomplete.ndjson"));
    journal.append(trial(1));
    appendFileSync(journal.file, `${JSON.stringify({ scenario: "scenario", ablation: "full", seed: 2 })}\n`);
    appendFileSync(journal.file, `${JSON.stringify({ ...trial(3), asks: [{ ask: "q", ranks: "1", coverage: 0.5, leaked: [], tokens: 1 }] })}\n`);
    journal.append(trial(4));
    const warnings: string[] = [];
    const done = journal.load((w) => warnings.push(w));
    expect([...done.keys()]).toEqual([trialKey(trial(1)), trialKey(trial(4))]);
    expect(warnings).toEqual([
      `${journal.file}: line 2 is not a complete trial (at asks: Invalid input: expected array, received undefined); that trial runs again`,
      `${journal.file}: line 3 is not a complete trial (at asks[0].ranks: Invalid input: expected array, received string); that trial runs again`,
    ]);
  });

  it("skips, with a warning, a damaged line in the middle, but not the torn last line an interruption leaves", () => {
    const journal = new Journal(temp.path("damaged.ndjson"));
    journal.append(trial(1));
    appendFileSync(journal.file, "{\"scenario\": garbage\n");
    journal.append(trial(2));
    appendFileSync(journal.file, JSON.stringify(trial(3)).slice(0, 20));
    const warnings: string[] = [];
    expect([...journal.load((w) => warnings.push(w)).keys()]).toEqual([trialKey(trial(1)), trialKey(trial(2))]);
    expect(warnings).toEqual([`${journal.file}: line 2 is not valid JSON; that trial runs again`]);
  });

  it("is removed when the run completes, and removing twice is harmless", () => {
    const journal = new Journal(temp.path("done.ndjson"));
    journal.append(trial(1));
    journal.remove();
    expect(existsSync(journal.file)).toBe(false);
    expect(() => journal.remove()).not.toThrow();
  });
});
