import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { runCli as runCliEntry } from "../../src/cli/run.js";
import { repoPath, type TempDir, useTempDir } from "../harness/temp-files.js";

/**
 * A throw-away working folder for running the real CLI, in this process or as a subprocess. The CLI writes results/,
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

/** The environment of a run: this process's, without colours, with the test's variables on top. */
const cliEnv = (env: Record<string, string> = {}): Record<string, string | undefined> => ({ ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...env });

/**
 * Starts the CLI (`node --import tsx src/cli/main.ts <args>`) in `cwd`. It runs in a process
 * group of its own, so a test can kill the whole CLI at once. Spawn it only where the process
 * boundary is what a test checks (signals, the binary, the shell's exit status, a process's
 * rights, its standard streams); otherwise runCli runs the same code without starting Node.
 */
export function spawnCli(args: string[], cwd: string, options: SpawnOptions = {}): { child: ChildProcess; done: Promise<CliOutcome> } {
  const command = [...(options.wrapper ?? []), process.execPath, "--import", "tsx", "src/cli/main.ts", ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    detached: true,
    env: cliEnv(options.env),
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

/** Runs the CLI as a process (see spawnCli) and waits for it to end. */
export function runCliProcess(args: string[], cwd: string, options: SpawnOptions = {}): Promise<CliOutcome> {
  return spawnCli(args, cwd, options).done;
}

/** A stream that keeps what is written to it, as a pipe to a test would. */
function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** What a run may leave in the process; a run that changes any of it leaks into the next one. */
const PROCESS_EVENTS = ["SIGINT", "SIGTERM", "exit", "beforeExit", "uncaughtException", "unhandledRejection", "warning"] as const;
const processState = () => JSON.stringify({ cwd: process.cwd(), exitCode: process.exitCode, listeners: PROCESS_EVENTS.map((event) => process.listenerCount(event)) });

/** The in-process runs, one after another: a run in another folder moves the whole process there. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI in this process, through the entry the binary runs (src/cli/run.ts), in `cwd` and
 * with the environment a spawned run would have, its standard input empty as with spawnCli. It
 * says what a spawned run would: the exit code and everything written. A bug (a throw) ends as
 * Node ends an uncaught one: exit 1 with the stack trace on standard error. A run that leaves a
 * listener, an exit code or a working folder behind fails the test that made it.
 */
export function runCli(args: string[], cwd: string, options: Pick<SpawnOptions, "env"> = {}): Promise<CliOutcome> {
  const run = async (): Promise<CliOutcome> => {
    const stdout = capture();
    const stderr = capture();
    const before = processState();
    let code: number;
    try {
      code = await runCliEntry(args, { cwd, env: cliEnv(options.env), stdout: stdout.stream, stderr: stderr.stream, stdin: Readable.from([]) });
    } catch (bug) {
      stderr.stream.write(`${bug instanceof Error ? bug.stack : String(bug)}\n`);
      code = 1;
    }
    const after = processState();
    if (after !== before) throw new Error(`recollect ${args.join(" ")} left the process changed: ${before} before, ${after} after`);
    return { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
  };
  const done = queue.then(run, run);
  queue = done.catch(() => undefined);
  return done;
}

/** Sends SIGKILL to every process of the CLI's group, as `kill -9` would. */
export function killCli(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // Already gone.
  }
}
