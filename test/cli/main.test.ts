import { existsSync, readdirSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliOutcome, runCli, useSandbox } from "./sandbox.js";

/**
 * The CLI's contract for a mistake in a user's file: one line on stderr, "recollect: <file>:"
 * followed by the path inside the file and what is wrong, exit code 2, no stack trace, and nothing
 * written. Every such error is covered in-process by the loader tests; here a representative set
 * goes through the real command line (each launch costs about a second, so they run together).
 */
const sandbox = useSandbox();

/** Each experiment has a name of its own, so a results/<name>.json written by mistake would show which. */
const experiment = (name: string, ...lines: string[]) =>
  sandbox.write(`experiments/${name}.yaml`, [`name: ${name}`, "description: a broken experiment", ...lines].join("\n"));
const withDefaults = (name: string, ...lines: string[]) => {
  const keys = new Set(lines.map((l) => l.split(":")[0]));
  const defaults = ["scenarios: [../scenarios/stream-example.yaml]", "allowOutside: true", "ablations: [full, no-touch]", "seeds: [1, 2]"].filter(
    (l) => !keys.has(l.split(":")[0]),
  );
  return experiment(name, ...defaults, ...lines);
};

const laterId = sandbox.write(
  "scenarios-bad/expects-later.yaml",
  [
    "name: expects-later",
    "description: an ask expecting a memory that is only written after it",
    "steps:",
    "  - remember: { id: a, kind: semantic, text: Tea }",
    '  - ask: { id: q, query: "Coffee?", expect: [b] }',
    "  - remember: { id: b, kind: semantic, text: Coffee }",
  ].join("\n"),
);

interface Case {
  file: string;
  /** The file the message must name (the experiment's, or a scenario's). */
  names: string;
  /** What the message must say after the file name. */
  says: RegExp;
}

const CASES: Record<string, Case> = {};
function bad(title: string, file: string, says: RegExp, names = file) {
  CASES[title] = { file, names, says };
}

bad(
  "an unknown key inside a custom ablation's patch",
  withDefaults("bad-patch-key", "ablations: [full, { name: mine, patch: { score: { wieghts: [1, 0, 0] } } }]"),
  /^at ablations\[1\]\.patch\.score: unknown key "wieghts"$/,
);
bad(
  "a missing scenario file",
  withDefaults("bad-missing-scenario", "scenarios: [../scenarios/no-such-scenario.yaml]"),
  /^at scenarios\[0\]: scenario file "\.\.\/scenarios\/no-such-scenario\.yaml" not found \(paths are relative to the experiment file's folder, .*\/experiments\/\)$/,
);
bad("seeds given as a word", withDefaults("bad-seeds", 'seeds: "five"'), /^at seeds: .*expected array, received string$/);
bad("malformed YAML", experiment("bad-yaml", "scenarios: [scenarios/stream-example.yaml", "ablations: [full]", "seeds: [1]"), /^malformed YAML at line \d+, column \d+: \S.*[^:]$/);
bad(
  "an ask expecting an id that is only written later (named in the scenario's file)",
  withDefaults("bad-scenario", `scenarios: [${JSON.stringify(laterId)}]`),
  /^at steps\[1\]\.ask\.expect\[0\]: "b" is not a memory written before this ask$/,
  laterId,
);

const outcomes = new Map<string, CliOutcome>();
let badShard: CliOutcome;
let badWorkers: CliOutcome;

beforeAll(async () => {
  const titles = Object.keys(CASES);
  const shardRun = runCli(["experiment", CASES["seeds given as a word"].file, "--shard", "3/2"], sandbox.dir);
  const workersRun = runCli(["check", "--workers", "abc"], sandbox.dir);
  const results = await Promise.all(titles.map((title) => runCli(["experiment", CASES[title].file, "--workers", "1"], sandbox.dir)));
  titles.forEach((title, i) => outcomes.set(title, results[i]));
  badShard = await shardRun;
  badWorkers = await workersRun;
});

describe("recollect experiment with a bad file", () => {
  describe.each(Object.keys(CASES))("%s", (title) => {
    it("exits 2 with one line naming the file, the path inside it and the problem, and no stack trace", () => {
      const { file, names, says } = CASES[title];
      const outcome = outcomes.get(title)!;
      expect(outcome.code, outcome.stderr).toBe(2);
      expect(outcome.stderr.endsWith("\n")).toBe(true);
      const lines = outcome.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      const prefix = `recollect: ${names}: `;
      expect(lines[0].startsWith(prefix), lines[0]).toBe(true);
      expect(lines[0].slice(prefix.length)).toMatch(says);
      expect(outcome.stderr).not.toMatch(/^\s+at /m);
      expect(outcome.stdout).toBe("");
      if (names !== file) expect(lines[0]).not.toContain(file);
    });
  });

  it("writes no results and no reports", () => {
    expect(outcomes.size).toBe(Object.keys(CASES).length);
    const results = sandbox.path("results");
    expect(existsSync(results) ? readdirSync(results) : []).toEqual([]);
    for (const output of ["EVALUATION.md", "reports", "schemas", ".recollect"]) expect(existsSync(sandbox.path(output)), output).toBe(false);
  });
});

describe("recollect with a bad argument", () => {
  it("exits 2 with one line for a shard outside 1..n", () => {
    expect(badShard.code).toBe(2);
    expect(badShard.stderr).toBe('recollect: --shard expects i/n with 1 ≤ i ≤ n, got "3/2"\n');
  });

  it("exits 2 with one line for a worker count that is not a positive whole number", () => {
    expect(badWorkers.code).toBe(2);
    expect(badWorkers.stderr).toBe('recollect: --workers expects a whole number of at least 1, got "NaN"\n');
  });
});
