/**
 * One running system process and the line-by-line exchange with it: a request goes out on its
 * standard input, one reply line is awaited on its standard output, under a timeout. Whatever goes
 * wrong (the process cannot start, exits, hangs, writes what is not one JSON-RPC reply to that
 * request) ends the process and rejects with a SystemError saying what happened; standard error
 * is kept (its last lines) so a crash can be explained in its own words.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { SystemError, type SystemCall } from "../contract.js";
import { replySchema } from "./protocol.js";

/** A reply line longer than this is garbage, not a list of ids. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_BYTES = 2048;

export interface ProcessSpec {
  command: readonly string[];
  cwd: string;
  timeoutMs: number;
}

interface Pending {
  id: number;
  call: SystemCall;
  resolve: (reply: unknown) => void;
  reject: (error: SystemError) => void;
  timer: NodeJS.Timeout;
}

export class SystemProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private pending: Pending | undefined;
  private buffer = "";
  private stderr = "";
  private nextId = 1;
  private ended: SystemError | undefined;
  private readonly exited: Promise<void>;

  constructor(private readonly spec: ProcessSpec) {
    const [program, ...args] = spec.command;
    this.child = spawn(program, args, { cwd: spec.cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => this.child.once("close", () => resolve()));
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onData(chunk));
    this.child.stderr.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    // Writing to a process that has died fails; the exit is reported instead.
    this.child.stdin.on("error", () => {});
    this.child.once("error", (error: NodeJS.ErrnoException) => {
      const why = error.code === "ENOENT" ? `the command "${program}" was not found` : error.message;
      this.end(new SystemError("start", `could not be started (${why})`, { cause: error }));
    });
    this.child.once("exit", (code, signal) => {
      // Give standard error a moment to be read, so the message can quote it.
      setImmediate(() => this.end(new SystemError(this.pending?.call ?? "start", `the process ${exitWords(code, signal)}${this.lastWords()}`)));
    });
  }

  get alive(): boolean {
    return this.ended === undefined;
  }

  /** Sends one request and resolves with its reply (a result or an error object, checked for shape). */
  request(call: SystemCall, method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    // A process that ended between requests says why to the call that finds it gone.
    if (this.ended !== undefined) return Promise.reject(this.ended.call === call ? this.ended : new SystemError(call, this.ended.problem, { cause: this.ended }));
    if (this.pending !== undefined) throw new Error("a system process serves one request at a time");
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.end(new SystemError(call, `no reply within ${this.spec.timeoutMs} ms (the process was stopped)${this.lastWords()}`));
      }, this.spec.timeoutMs);
      this.pending = { id, call, resolve: resolve as (reply: unknown) => void, reject, timer };
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  /** Ends the process: kills it if it is still running, and waits until it has gone. */
  async kill(): Promise<void> {
    this.end(new SystemError("shutdown", "the process was stopped"));
    await this.exited;
  }

  /** Waits up to the timeout for the process to exit by itself, then kills it. */
  async waitForExit(): Promise<void> {
    const timer = setTimeout(() => this.child.kill("SIGKILL"), this.spec.timeoutMs);
    this.child.stdin.end();
    await this.exited;
    clearTimeout(timer);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() !== "") this.onLine(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES) this.end(this.garbage(`a line longer than ${MAX_LINE_BYTES} bytes`));
  }

  private onLine(line: string): void {
    const pending = this.pending;
    if (pending === undefined) {
      this.end(this.garbage(`a line nobody asked for: ${excerpt(line)}`));
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.end(this.garbage(`a line that is not JSON: ${excerpt(line)}`));
      return;
    }
    const reply = replySchema.safeParse(raw);
    if (!reply.success) {
      this.end(this.garbage(`a line that is not a JSON-RPC 2.0 reply (${issueWords(reply.error.issues[0])}): ${excerpt(line)}`));
      return;
    }
    if (reply.data.id !== pending.id) {
      this.end(this.garbage(`a reply to request ${reply.data.id} while request ${pending.id} was waiting`));
      return;
    }
    clearTimeout(pending.timer);
    this.pending = undefined;
    pending.resolve(reply.data);
  }

  private garbage(what: string): SystemError {
    return new SystemError(this.pending?.call ?? "start", `wrote ${what}`);
  }

  private end(error: SystemError): void {
    if (this.ended !== undefined) return;
    this.ended = error;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined) {
      clearTimeout(pending.timer);
      pending.reject(error.call === pending.call ? error : new SystemError(pending.call, error.problem, { cause: error }));
    }
  }

  private lastWords(): string {
    const tail = this.stderr.trim().split("\n").slice(-3).join(" / ").trim();
    return tail === "" ? "" : `; its standard error ends: ${excerpt(tail, 300)}`;
  }
}

function exitWords(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
}

function issueWords(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (issue === undefined) return "invalid";
  return issue.path.length > 0 ? `at ${issue.path.map(String).join(".")}: ${issue.message}` : issue.message;
}

export function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
