import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
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
  // As in a checkout, the embedding and token-count caches are not part of the work tree: a run
  // that fails after it embedded or counted something keeps those figures, which are right
  // whatever the run's fate.
  writeFileSync(sandbox.path(".gitignore"), ".recollect/embeddings.db*\n.recollect/token-counts.db*\n");
  return sandbox;
}

/** Git in the sandbox, with an identity of its own, so its status shows whatever a run wrote. */
export function git(sandbox: Sandbox, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=sandbox", "-c", "user.email=sandbox@example.com", ...args], {
    cwd: sandbox.dir,
    encoding: "utf8",
  });
}

/** Commits everything in the sandbox (a new repository the first time). */
export function commitSandbox(sandbox: Sandbox): void {
  git(sandbox, "init", "--quiet");
  git(sandbox, "add", "--all");
  git(sandbox, "commit", "--quiet", "--allow-empty", "--message", "sandbox");
}

/** What a run changed or added in the sandbox since its last commit; "" when nothing. */
export function sandboxChanges(sandbox: Sandbox): string {
  return git(sandbox, "status", "--porcelain", "--untracked-files=all");
}

export interface CliOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  /** A command that runs the CLI for us, such as setpriv with capabilities dropped. */
  wrapper?: string[];
  env?: Record<string, string>;
}

/**
 * Starts the CLI (`node --import tsx src/cli/main.ts <args>`) in `cwd`. It runs in a process
 * group of its own, so a test can kill the whole CLI at once.
 */
export function spawnCli(args: string[], cwd: string, options: SpawnOptions = {}): { child: ChildProcess; done: Promise<CliOutcome> } {
  const command = [...(options.wrapper ?? []), process.execPath, "--import", "tsx", "src/cli/main.ts", ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    detached: true,
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...options.env },
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

export function runCli(args: string[], cwd: string, options: SpawnOptions = {}): Promise<CliOutcome> {
  return spawnCli(args, cwd, options).done;
}

/** Sends SIGKILL to every process of the CLI's group, as `kill -9` would. */
export function killCli(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // Already gone.
  }
}
