import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoPath, useTempDir } from "../harness/temp-files.js";

/**
 * The help texts say `recollect <command>`, so package.json names a bin of that name, and
 * `npx recollect …` in the project runs the same command line as `npm run`. The bin is started the
 * way a shell starts it (by its path, through its #! line), from a folder other than the project,
 * so it must find its own sources and loader wherever it is run from.
 */
const run = promisify(execFile);
const packageJson = JSON.parse(readFileSync(repoPath("package.json"), "utf8")) as { bin: Record<string, string> };
const lock = JSON.parse(readFileSync(repoPath("package-lock.json"), "utf8")) as { packages: Record<string, { bin?: Record<string, string> }> };
const elsewhere = useTempDir("recollect-bin-");
const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", npm_config_offline: "true", npm_config_update_notifier: "false" };

let direct: string;
let viaNpx: string;

beforeAll(async () => {
  direct = (await run(repoPath(packageJson.bin.recollect!), ["--help"], { cwd: elsewhere.dir, env })).stdout;
  viaNpx = (await run("npx", ["recollect", "check", "--help"], { cwd: repoPath("."), env })).stdout;
});

describe("the recollect bin", () => {
  it("is the one bin package.json declares, and the lock file's root package records the same", () => {
    expect(Object.keys(packageJson.bin)).toEqual(["recollect"]);
    expect(lock.packages[""]!.bin).toEqual(packageJson.bin);
  });

  it("prints the help, whose usage line is the bin's own name, from any folder", () => {
    expect(direct.split("\n")[0]).toBe("recollect <command> [options]");
    for (const command of ["experiment", "check", "merge", "convert"]) expect(direct).toMatch(new RegExp(`^\\s+recollect ${command}\\b`, "m"));
  });

  it("runs through npx in the project, with the command's own help", () => {
    expect(viaNpx.split("\n")[0]).toBe("recollect check [files..]");
  });
});
