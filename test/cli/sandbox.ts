import { type ChildProcess, spawn } from "node:child_process";
import { symlinkSync } from "node:fs";
import { repoPath, type TempDir, useTempDir } from "../harness/temp-files.js";

/**
 * A throw-away working folder for running the real CLI as a subprocess. The CLI writes results/,
 * reports and EVALUATION.md relative to its working folder and regenerates the reports from every
 * results file there, so a test run must never share the repository's own folders. The sandbox
 * links to the repository's code and dependencies and has its own experiments, results and reports.
 */
export type Sandbox = TempDir;

const LINKED = ["node_modules", "src", "scenarios", "package.json", "package-lock.json", "tsconfig.json"];

export function useSandbox(): Sandbox {
  const sandbox = useTempDir("recollect-cli-");
  for (const name of LINKED) symlinkSync(repoPath(name), sandbox.path(name));
  return sandbox;
}

export interface CliOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `npx tsx src/cli/main.ts <args>` in `cwd`. It runs in a process group of its own (npx
 * and tsx each start a child), so a test can kill the whole CLI at once.
 */
export function spawnCli(args: string[], cwd: string): { child: ChildProcess; done: Promise<CliOutcome> } {
  const child = spawn("npx", ["tsx", "src/cli/main.ts", ...args], {
    cwd,
    detached: true,
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<CliOutcome>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: string[], cwd: string): Promise<CliOutcome> {
  return spawnCli(args, cwd).done;
}

/** Sends SIGKILL to every process of the CLI's group, as `kill -9` would. */
export function killCli(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // Already gone.
  }
}
