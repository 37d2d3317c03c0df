import { afterEach, describe, expect, it } from "vitest";
import { SystemError } from "../../../../src/harness/systems/contract.js";
import { excerpt, SystemProcess } from "../../../../src/harness/systems/subprocess/process.js";
import { PROTOCOL } from "../../../../src/harness/systems/subprocess/protocol.js";
import { useTempDir } from "../../temp-files.js";
import { eventually, gone, logged, pidsIn, scripted } from "../fixture-system.js";

const temp = useTempDir();
let count = 0;
const started: SystemProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.kill()));
});

/** The scripted system as a process, with a log of its own, under `timeoutMs`. */
function start(args: string[] = [], timeoutMs = 5000): { process: SystemProcess; log: string } {
  const log = temp.path(`log-${++count}.ndjson`);
  const process = new SystemProcess({ command: scripted(...args, "--log", log), cwd: temp.dir, timeoutMs });
  started.push(process);
  return { process, log };
}

const hello = { protocol: PROTOCOL, name: "scripted", options: {} };

/** Opens scope "user" on a started process, ready to be asked. */
async function opened(args: string[] = [], timeoutMs?: number) {
  const made = start(args, timeoutMs);
  await made.process.request("start", "initialize", hello);
  await made.process.request("open", "open", { scope: "user" });
  return made;
}

async function failure(promise: Promise<unknown>): Promise<SystemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SystemError);
  return error as SystemError;
}

const retrieve = (process: SystemProcess) => process.request("retrieve", "retrieve", { scope: "user", query: "q", now: 0, budget: null });

describe("SystemProcess", () => {
  it("sends one JSON-RPC request per line, with ids counting up from 1, and resolves with each reply", async () => {
    const { process, log } = start();
    expect(await process.request("start", "initialize", hello)).toEqual({ jsonrpc: "2.0", id: 1, result: { protocol: PROTOCOL, name: "scripted" } });
    expect(await process.request("open", "open", { scope: "user" })).toMatchObject({ id: 2, result: null });
    expect(await retrieve(process)).toMatchObject({ id: 3, result: { ids: [] } });
    expect(logged(log).slice(1)).toEqual([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: hello },
      { jsonrpc: "2.0", id: 2, method: "open", params: { scope: "user" } },
      { jsonrpc: "2.0", id: 3, method: "retrieve", params: { scope: "user", query: "q", now: 0, budget: null } },
    ]);
    expect(process.alive).toBe(true);
  });

  it("resolves with an error object as the system sent it, leaving the verdict to its caller", async () => {
    const { process } = await opened(["--fail", "error"]);
    expect(await retrieve(process)).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32000, message: "the index is corrupt" } });
  });

  it("reports a crash with its exit code and the last lines of its standard error, for the call that was waiting", async () => {
    const { process, log } = await opened(["--fail", "crash"]);
    const error = await failure(retrieve(process));
    expect(error.call).toBe("retrieve");
    expect(error.problem).toBe("the process exited with code 3; its standard error ends: starting to answer / reading the index / IndexError: list index out of range");
    expect(process.alive).toBe(false);
    expect(await gone(pidsIn(log)[0]!)).toBe(true);
  });

  it("stops a process that does not reply within the timeout, and says so", async () => {
    // Long enough that a loaded machine still starts the process in time: the timeout covers every call.
    const { process, log } = await opened(["--fail", "hang"], 2_000);
    const started = performance.now();
    const error = await failure(retrieve(process));
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_980);
    expect(error.call).toBe("retrieve");
    expect(error.problem).toBe("no reply within 2000 ms (the process was stopped)");
    expect(process.alive).toBe(false);
    expect(await gone(pidsIn(log)[0]!)).toBe(true);
  });

  it("stops a process that writes a line that is not JSON, quoting the line", async () => {
    const { process, log } = await opened(["--fail", "garbage"]);
    const error = await failure(retrieve(process));
    expect(error.call).toBe("retrieve");
    expect(error.problem).toBe("wrote a line that is not JSON: Traceback (most recent call last): oops");
    expect(await gone(pidsIn(log)[0]!)).toBe(true);
  });

  it("stops a process that replies to another request than the one waiting", async () => {
    const { process } = await opened(["--fail", "wrong-id"]);
    const error = await failure(retrieve(process));
    expect(error.call).toBe("retrieve");
    expect(error.problem).toBe("wrote a reply to request 10 while request 3 was waiting");
  });

  it("stops a process whose line is JSON but not a JSON-RPC reply, saying what is wrong with it", async () => {
    const { process } = await opened(["--fail", "no-result"]);
    const error = await failure(retrieve(process));
    expect(error.call).toBe("retrieve");
    expect(error.problem).toMatch(/^wrote a line that is not a JSON-RPC 2\.0 reply \(.+\): \{"jsonrpc":"2\.0","id":3\}$/);
  });

  it("stops a process that writes a line nobody asked for, and tells the next call why it is gone", async () => {
    const { process, log } = start(["--fail", "unasked"]);
    await eventually(() => pidsIn(log).length === 1);
    await eventually(() => !process.alive);
    const error = await failure(process.request("start", "initialize", hello));
    expect(error.call).toBe("start");
    expect(error.problem).toBe('wrote a line nobody asked for: {"jsonrpc":"2.0","id":1,"result":null}');
  });

  it("tells a call that finds the process gone how it ended, under that call's name", async () => {
    const { process } = start(["--fail", "exit-after-reply", "--at", "open"]);
    await process.request("start", "initialize", hello);
    await process.request("open", "open", { scope: "user" });
    await eventually(() => !process.alive);
    const error = await failure(process.request("write", "write", { scope: "user", memories: [] }));
    expect(error.call).toBe("write");
    expect(error.problem).toBe("the process exited with code 4; its standard error ends: done after one reply");
  });

  it("says so when the command cannot be found", async () => {
    const process = new SystemProcess({ command: ["no-such-memory-system-xyz", "--serve"], cwd: temp.dir, timeoutMs: 5000 });
    started.push(process);
    const error = await failure(process.request("start", "initialize", hello));
    expect(error.call).toBe("start");
    expect(error.problem).toBe('could not be started (the command "no-such-memory-system-xyz" was not found)');
    expect(process.alive).toBe(false);
  });

  it("kill() ends a running process and waits until it has gone", async () => {
    const { process, log } = await opened();
    await process.kill();
    expect(process.alive).toBe(false);
    expect(await gone(pidsIn(log)[0]!, 0)).toBe(true);
    expect((await failure(retrieve(process))).problem).toBe("the process was stopped");
  });

  it("waitForExit() closes standard input and waits for the process to leave by itself", async () => {
    const { process, log } = await opened();
    await process.waitForExit();
    expect(await gone(pidsIn(log)[0]!, 0)).toBe(true);
    await eventually(() => !process.alive);
  });
});

describe("excerpt", () => {
  it("flattens whitespace and cuts long text with an ellipsis", () => {
    expect(excerpt("  a\n\tb   c ")).toBe("a b c");
    expect(excerpt("x".repeat(100), 10)).toBe(`${"x".repeat(10)}…`);
    expect(excerpt("x".repeat(10), 10)).toBe("x".repeat(10));
  });
});
