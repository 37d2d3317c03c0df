import { afterEach, describe, expect, it } from "vitest";
import { type MemorySystem, SystemError, type SystemMemory } from "../../../../src/harness/systems/contract.js";
import { PROTOCOL } from "../../../../src/harness/systems/subprocess/protocol.js";
import { subprocessSystem } from "../../../../src/harness/systems/subprocess/system.js";
import { repoPath, useTempDir } from "../../temp-files.js";
import { gone, isRunning, logged, methodsIn, pidsIn, scripted } from "../fixture-system.js";

const temp = useTempDir();
let count = 0;
const systems: MemorySystem[] = [];
afterEach(async () => {
  await Promise.all(systems.splice(0).map((s) => s.shutdown?.()));
});

function system(args: string[] = [], { timeoutMs = 5000, options = {} as Record<string, unknown> } = {}): { system: MemorySystem; log: string } {
  const log = temp.path(`log-${++count}.ndjson`);
  const made = subprocessSystem({ name: "scripted", command: scripted(...args, "--log", log), cwd: temp.dir, timeoutMs, options });
  systems.push(made);
  return { system: made, log };
}

const memory = (id: string, text: string, createdAt: number, tokens: number): SystemMemory => ({
  id,
  kind: "semantic",
  text,
  createdAt,
  occurredAt: null,
  supersedes: null,
  expiresAt: null,
  source: null,
  tokens,
});

const MEMORIES = [memory("tea", "The user drinks green tea.", 1000, 7), memory("lake", "We walked around the lake.", 2000, 6), memory("cat", "The cat is called Miso.", 3000, 8)];
const ask = (budget: number | null, query = "What does the user drink?") => ({ query, now: 5000, budget });

async function failure(promise: Promise<unknown>): Promise<SystemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SystemError);
  return error as SystemError;
}

/** Opens a scope and writes the memories: the trial's first calls. */
async function written(made: MemorySystem, scope = "user") {
  const opened = await made.open(scope);
  await opened.write(MEMORIES);
  return opened;
}

describe("subprocessSystem", () => {
  it("starts the process on the first open with the handshake: the protocol, the system's name and its options", async () => {
    const { system: made, log } = system([], { options: { k1: 1.2, block: false } });
    expect(pidsIn(log)).toEqual([]);
    await made.open("user");
    expect(logged(log)[1]).toEqual({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocol: PROTOCOL, name: "scripted", options: { k1: 1.2, block: false } } });
  });

  it("writes, retrieves and closes through the process, passing the memories and the query as they are", async () => {
    const { system: made, log } = system();
    const scope = await written(made);
    expect(await scope.retrieve(ask(14))).toEqual({ ids: ["cat", "lake"] });
    expect(await scope.retrieve(ask(null))).toEqual({ ids: ["cat", "lake", "tea"] });
    await scope.close();
    expect(methodsIn(log)).toEqual(["initialize", "open", "write", "retrieve", "retrieve", "close"]);
    expect(logged(log)[3]!.params).toEqual({ scope: "user", memories: MEMORIES });
    expect(logged(log)[4]!.params).toEqual({ scope: "user", query: "What does the user drink?", now: 5000, budget: 14 });
  });

  it("gives back the block a system builds", async () => {
    const { system: made } = system([], { options: { block: true } });
    const scope = await written(made);
    expect(await scope.retrieve(ask(8))).toEqual({ ids: ["cat"], block: "The cat is called Miso." });
  });

  it("serves every later scope from the one process it started", async () => {
    const { system: made, log } = system();
    const first = await written(made, "alice");
    await first.close();
    const second = await written(made, "bob");
    await second.close();
    expect(pidsIn(log)).toHaveLength(1);
    expect(methodsIn(log).filter((m) => m === "initialize")).toHaveLength(1);
  });

  it("runs a system written in Python: the BM25 example ranks the memory that shares the question's words first", async () => {
    const made = subprocessSystem({ name: "python-bm25", command: ["python3", "bm25_system.py"], cwd: repoPath("examples/python-system"), timeoutMs: 10_000, options: {} });
    systems.push(made);
    const scope = await written(made);
    expect((await scope.retrieve(ask(null, "What tea does the user drink?"))).ids).toEqual(["tea"]);
    expect((await scope.retrieve(ask(null, "Which lake did we walk around, and what is the cat called?"))).ids).toEqual(expect.arrayContaining(["lake", "cat"]));
    expect((await scope.retrieve(ask(5, "What tea does the user drink?"))).ids).toEqual([]);
    await scope.close();
  });

  describe("a system that fails its call", () => {
    it("crashes: the call names the exit code and quotes the end of its standard error", async () => {
      const { system: made } = system(["--fail", "crash"]);
      const error = await failure((await written(made)).retrieve(ask(null)));
      expect(error.call).toBe("retrieve");
      expect(error.problem).toBe("the process exited with code 3; its standard error ends: starting to answer / reading the index / IndexError: list index out of range");
    });

    it("hangs: the call times out and the process is killed", async () => {
      const { system: made, log } = system(["--fail", "hang"], { timeoutMs: 2000 });
      const error = await failure((await written(made)).retrieve(ask(null)));
      expect(error).toMatchObject({ call: "retrieve", problem: "no reply within 2000 ms (the process was stopped)" });
      expect(await gone(pidsIn(log)[0]!)).toBe(true);
    });

    it("writes a line that is not JSON", async () => {
      const { system: made } = system(["--fail", "garbage", "--at", "write"]);
      const scope = await made.open("user");
      expect(await failure(scope.write(MEMORIES))).toMatchObject({ call: "write", problem: "wrote a line that is not JSON: Traceback (most recent call last): oops" });
    });

    it("replies with another request's id", async () => {
      const { system: made } = system(["--fail", "wrong-id"]);
      expect(await failure((await written(made)).retrieve(ask(null)))).toMatchObject({ call: "retrieve", problem: "wrote a reply to request 11 while request 4 was waiting" });
    });

    it("replies with an error object: its code and message are quoted, and the process is stopped", async () => {
      const { system: made, log } = system(["--fail", "error"]);
      const error = await failure((await written(made)).retrieve(ask(null)));
      expect(error).toMatchObject({ call: "retrieve", problem: "replied with error -32000: the index is corrupt" });
      expect(isRunning(pidsIn(log)[0]!)).toBe(false);
    });

    it("replies with a result the protocol does not allow, saying where: {id} is not {ids}", async () => {
      const { system: made, log } = system(["--fail", "bad-result"]);
      const error = await failure((await written(made)).retrieve(ask(null)));
      expect(error.call).toBe("retrieve");
      expect(error.problem).toMatch(/^replied with a result the protocol does not allow at result\.ids: .+/);
      expect(isRunning(pidsIn(log)[0]!)).toBe(false);
    });

    it("replies to open with something other than nothing", async () => {
      const { system: made } = system(["--fail", "bad-result", "--at", "open"]);
      const error = await failure(made.open("user"));
      expect(error.call).toBe("open");
      expect(error.problem).toMatch(/^replied with a result the protocol does not allow: /);
    });

    it("cannot be started: the command does not exist", async () => {
      const made = subprocessSystem({ name: "ghost", command: ["no-such-memory-system-xyz"], cwd: temp.dir, timeoutMs: 5000, options: {} });
      systems.push(made);
      expect(await failure(made.open("user"))).toMatchObject({ call: "start", problem: 'could not be started (the command "no-such-memory-system-xyz" was not found)' });
    });

    it("speaks another version of the protocol: the handshake fails as the start, naming the protocol field", async () => {
      const { system: made, log } = system(["--fail", "wrong-protocol"]);
      const error = await failure(made.open("user"));
      expect(error.call).toBe("start");
      expect(error.problem).toMatch(/^replied with a result the protocol does not allow at result\.protocol: .*recollect-system\/1/);
      expect(methodsIn(log)).toEqual(["initialize"]);
    });

    it("exits after a reply: the next call says how the process ended", async () => {
      const { system: made } = system(["--fail", "exit-after-reply", "--at", "open"]);
      const scope = await made.open("user");
      const error = await failure(new Promise((resolve) => setTimeout(resolve, 200)).then(() => scope.write(MEMORIES)));
      expect(error).toMatchObject({ call: "write", problem: "the process exited with code 4; its standard error ends: done after one reply" });
    });
  });

  it("starts a fresh process on the next open after a failure, so one failed trial does not fail the rest", async () => {
    const { system: made, log } = system(["--fail", "crash", "--scope", "doomed"]);
    await failure((await written(made, "doomed")).retrieve(ask(null)));
    const next = await written(made, "fine");
    expect(await next.retrieve(ask(8))).toEqual({ ids: ["cat"] });
    const [first, second] = pidsIn(log);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(methodsIn(log).filter((m) => m === "initialize")).toHaveLength(2);
  });

  it("shutdown asks the process to leave and waits until it has; a system never opened has nothing to end", async () => {
    const { system: made, log } = system();
    await (await written(made)).close();
    await made.shutdown!();
    expect(methodsIn(log).at(-1)).toBe("shutdown");
    expect(isRunning(pidsIn(log)[0]!)).toBe(false);
    await made.shutdown!();
    const idle = system();
    await idle.system.shutdown!();
    expect(pidsIn(idle.log)).toEqual([]);
  });

  it("shutdown stops a process that does not say goodbye", async () => {
    const { system: made, log } = system(["--fail", "hang", "--at", "shutdown"], { timeoutMs: 2000 });
    await (await written(made)).close();
    await made.shutdown!();
    expect(await gone(pidsIn(log)[0]!)).toBe(true);
  });
});
