import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkArgv, runSideBySide } from "./run.mjs";

/** A node process that prints `lines` (to stderr when a line starts with "!") and exits with `code`, after `delayMs`. */
const node = (lines: string[], code = 0, delayMs = 0): string[] => [
  process.execPath,
  "-e",
  `setTimeout(() => { for (const l of ${JSON.stringify(lines)}) l.startsWith("!") ? process.stderr.write(l.slice(1) + "\\n") : process.stdout.write(l + "\\n"); process.exit(${code}); }, ${delayMs})`,
];

async function run(first: string[], second: string[]): Promise<{ code: number; out: string; err: string }> {
  const streams = { out: new PassThrough(), err: new PassThrough() };
  const text = { out: "", err: "" };
  streams.out.on("data", (chunk: Buffer) => (text.out += chunk));
  streams.err.on("data", (chunk: Buffer) => (text.err += chunk));
  const code = await runSideBySide(first, second, streams);
  return { code, ...text };
}

describe("npm test's runner: vitest, and the check beside it", () => {
  it("prints the second command's output after the first's, though the second printed first", async () => {
    const outcome = await run(node(["tests 1", "tests 2", "!tests warn"], 0, 400), node(["check 1", "!check warn", "check 2"]));
    expect(outcome).toEqual({ code: 0, out: "tests 1\ntests 2\ncheck 1\ncheck 2\n", err: "tests warn\ncheck warn\n" });
  });

  it("passes on the second command's output printed after the first has ended", async () => {
    const outcome = await run(node(["tests"]), node(["check"], 0, 400));
    expect(outcome.out).toBe("tests\ncheck\n");
  });

  it("exits with the first command's code when it failed, else the second's", async () => {
    expect((await run(node([], 3), node([], 4))).code).toBe(3);
    expect((await run(node([], 0), node([], 4))).code).toBe(4);
    expect((await run(node([], 0), node([], 0))).code).toBe(0);
  });

  it("runs the second command 10 steps lower in priority, and the first as this process runs", async () => {
    const priority = (tag: string) => [process.execPath, "-e", `console.log("${tag}", require("node:os").getPriority())`];
    const { out } = await run(priority("first"), priority("second"));
    const own = (await import("node:os")).getPriority();
    expect(out).toBe(`first ${own}\nsecond ${Math.min(own + 10, 19)}\n`);
  });

  it("reports a command that cannot start as a failure", async () => {
    const outcome = await run(["no-such-command-xyz"], node(["check"]));
    expect(outcome.code).toBe(127);
    expect(outcome.out).toBe("check\n");
    expect(outcome.err).toBe("test: could not start no-such-command-xyz: spawn no-such-command-xyz ENOENT\n");
  });
});

describe("the check npm test runs beside vitest", () => {
  it("re-runs three conversations of each dataset experiment by default, and all of them with RECOLLECT_CHECK=full", () => {
    expect(checkArgv({})).toEqual(["npm", "run", "check", "--", "--sample", "3"]);
    expect(checkArgv({ RECOLLECT_CHECK: "sample" })).toEqual(["npm", "run", "check", "--", "--sample", "3"]);
    expect(checkArgv({ RECOLLECT_CHECK: "" })).toEqual(["npm", "run", "check", "--", "--sample", "3"]);
    expect(checkArgv({ RECOLLECT_CHECK: "full" })).toEqual(["npm", "run", "check"]);
  });

  it("refuses any other RECOLLECT_CHECK, naming what it expects", () => {
    expect(() => checkArgv({ RECOLLECT_CHECK: "all" })).toThrow('RECOLLECT_CHECK expects "full" or "sample", got "all"');
  });

  it("is the full check in CI", () => {
    expect(readFileSync(new URL("../.ci/run", import.meta.url), "utf8")).toMatch(/^export RECOLLECT_CHECK=full$/m);
  });
});
