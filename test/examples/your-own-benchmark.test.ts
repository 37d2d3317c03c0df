import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliOutcome, runCli } from "../cli/sandbox.js";
import { REPO_ROOT, repoPath, useTempDir } from "../harness/temp-files.js";

/**
 * The README's tutorial, "Your own benchmark", run as written: its files are the example files
 * byte for byte, its command runs through the real command line (into a temporary --out), and the
 * import table it shows is the one the run writes. Neither run touches the project's files.
 */
const readme = readFileSync(repoPath("README.md"), "utf8");
const tutorial = readme.slice(readme.indexOf("## Your own benchmark"), readme.indexOf("\n## ", readme.indexOf("## Your own benchmark") + 1));
const temp = useTempDir("recollect-tutorial-");

/** The fenced block that follows a marker comment, without its fences. */
function blockAfter(marker: string): string {
  const start = tutorial.indexOf(`<!-- ${marker} -->`);
  expect(start, `the tutorial has a ${marker} block`).toBeGreaterThanOrEqual(0);
  const fenced = /```[a-z]*\n([\s\S]*?)\n```/.exec(tutorial.slice(start))!;
  return fenced[1];
}

const gitStatus = () => execFileSync("git", ["status", "--porcelain"], { cwd: REPO_ROOT, encoding: "utf8" });

const command = blockAfter("command");
const args = command.replace(/^npm run experiment -- /, "").split(" ");
const out = temp.path("my-results");
let statusBefore: string;
let withOut: CliOutcome;
let withoutOut: CliOutcome;
const copy = temp.path("copy");

beforeAll(async () => {
  statusBefore = gitStatus();
  const outAt = args.indexOf("--out");
  withOut = await runCli(["experiment", ...args.slice(0, outAt), "--out", out, "--workers", "2"], REPO_ROOT);
  // The same files elsewhere, without --out: the output goes beside the experiment file.
  temp.write("copy/.keep", "");
  for (const name of ["conversations.jsonl", "experiment.yaml"]) copyFileSync(repoPath(`examples/your-own-benchmark/${name}`), join(copy, name));
  withoutOut = await runCli(["experiment", join(copy, "experiment.yaml"), "--workers", "1"], REPO_ROOT);
});

describe("the README tutorial, Your own benchmark", () => {
  it.each(["examples/your-own-benchmark/conversations.jsonl", "examples/your-own-benchmark/experiment.yaml"])("shows %s as it is", (file) => {
    expect(`${blockAfter(`file: ${file}`)}\n`).toBe(readFileSync(repoPath(file), "utf8"));
  });

  it("has a ten-line example file", () => {
    expect(readFileSync(repoPath("examples/your-own-benchmark/conversations.jsonl"), "utf8").trimEnd().split("\n")).toHaveLength(10);
  });

  it("runs its command through the real command line, writing everything under --out", () => {
    expect(command).toMatch(/^npm run experiment -- examples\/your-own-benchmark\/experiment\.yaml --out \S+$/);
    expect(withOut.code, withOut.stderr).toBe(0);
    for (const file of ["results/your-own-benchmark.json", "EVALUATION.md", "reports/your-own-benchmark.md", "reports/index.html"]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    expect(readdirSync(join(out, "reports/charts/your-own-benchmark")).filter((f) => f.endsWith(".svg")).length).toBeGreaterThan(0);
    // A user's output folder holds no project files.
    for (const file of ["schemas", "FAILURE_ANALYSIS.md"]) expect(existsSync(join(out, file)), file).toBe(false);
    expect(withOut.stdout).toContain("your-own-benchmark: imported 10 conversations");
  });

  it("shows the import table the run writes", () => {
    const evaluation = readFileSync(join(out, "EVALUATION.md"), "utf8");
    const written = evaluation.slice(evaluation.indexOf("### Import\n\n") + "### Import\n\n".length);
    const shown = tutorial.slice(tutorial.indexOf("<!-- import-table -->\n") + "<!-- import-table -->\n".length);
    const table = shown.slice(0, shown.indexOf("\n\n- "));
    expect(written.startsWith(`${table}\n`), `README:\n${table}\n\nEVALUATION.md:\n${written.slice(0, table.length)}`).toBe(true);
  });

  it("records the files by their names, never by where they lie on this machine", () => {
    const results = readFileSync(join(out, "results/your-own-benchmark.json"), "utf8");
    expect(results).toContain('"file": "experiment.yaml"');
    expect(results).toContain('"path": "conversations.jsonl"');
    expect(results).not.toContain(REPO_ROOT);
    expect(results).not.toContain(temp.dir);
  });

  it("writes beside the experiment file when no --out is given", () => {
    expect(withoutOut.code, withoutOut.stderr).toBe(0);
    expect(existsSync(join(copy, "recollect-out/results/your-own-benchmark.json"))).toBe(true);
    expect(existsSync(join(copy, "recollect-out/EVALUATION.md"))).toBe(true);
  });

  it("leaves the project's files as they were", () => {
    expect(gitStatus()).toBe(statusBefore);
  });
});
