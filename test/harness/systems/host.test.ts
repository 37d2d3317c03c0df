import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fullPolicy, type TokenCounter } from "../../../src/memory/index.js";
import { SystemError } from "../../../src/harness/systems/contract.js";
import { SystemHost, type TrialResources } from "../../../src/harness/systems/host.js";
import { NO_EMBEDDINGS } from "../../../src/harness/systems/recollect.js";
import type { SystemRef } from "../../../src/harness/systems/spec.js";
import { repoPath, useTempDir } from "../temp-files.js";
import { gone, methodsIn, pidsIn, scripted } from "./fixture-system.js";

const temp = useTempDir();
const words: TokenCounter = { count: (text) => text.split(/\s+/).filter(Boolean).length };
const resources: TrialResources = { tokenizer: words, embeddings: NO_EMBEDDINGS };
const moduleRef = (name: string, options: Record<string, unknown> = {}): SystemRef => ({
  type: "module",
  file: repoPath(`test/fixtures/systems/${name}`),
  options,
  timeoutMs: 5000,
});
let logs = 0;
const commandRef = (): { ref: SystemRef; log: string } => {
  const log = temp.path(`log-${++logs}.ndjson`);
  return { ref: { type: "command", name: "scripted", command: scripted("--log", log), cwd: temp.dir, options: {}, timeoutMs: 5000 }, log };
};

/** One trial's use of a system: a scope opened, one memory written, one question, closed. */
async function trial(host: SystemHost, ref: SystemRef): Promise<string[]> {
  const system = await host.system(ref, resources);
  const scope = await system.open("user");
  await scope.write([{ id: "m", kind: "semantic", text: "The user likes tea.", createdAt: 0, occurredAt: null, supersedes: null, expiresAt: null, source: null, tokens: 4 }]);
  const { ids } = await scope.retrieve({ query: "tea", now: 1, budget: null });
  await scope.close();
  return ids;
}

describe("SystemHost", () => {
  it("makes recollect afresh for each trial, under the trial's policy, reporting where gold memories rank", async () => {
    const host = new SystemHost();
    const ref: SystemRef = { type: "recollect", policy: fullPolicy };
    const first = await host.system(ref, resources);
    expect(await host.system(ref, resources)).not.toBe(first);
    expect(first.locates).toBe(true);
    expect(await trial(host, ref)).toEqual(["m"]);
  });

  it("makes a baseline afresh for each trial", async () => {
    const host = new SystemHost();
    const ref: SystemRef = { type: "baseline", baseline: "full-context" };
    expect(await host.system(ref, resources)).not.toBe(await host.system(ref, resources));
    expect(await trial(host, ref)).toEqual(["m"]);
  });

  it("keeps one system per module and options, made once, for every later trial", async () => {
    const host = new SystemHost();
    const loaded = (await import(repoPath("test/fixtures/systems/word-module.ts"))) as { made: number };
    const before = loaded.made;
    const [a, b] = await Promise.all([host.system(moduleRef("word-module.ts"), resources), host.system(moduleRef("word-module.ts"), resources)]);
    expect(a).toBe(b);
    expect(await host.system(moduleRef("word-module.ts", { limit: 1 }), resources)).not.toBe(a);
    expect(loaded.made).toBe(before + 2);
  });

  it("tries a module that failed to start again at the next trial, which may then succeed", async () => {
    const host = new SystemHost();
    const needs = temp.path("index.built");
    const ref = moduleRef("flaky-module.mjs", { needs });
    const error = await host.system(ref, resources).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SystemError);
    expect((error as SystemError).problem).toBe(`making the system failed (${needs} is missing)`);
    writeFileSync(needs, "");
    expect(await trial(host, ref)).toEqual([]);
  });

  it("keeps one subprocess per command, started once for every later trial", async () => {
    const host = new SystemHost();
    const { ref, log } = commandRef();
    expect(await host.system(ref, resources)).toBe(await host.system(ref, resources));
    expect(await trial(host, ref)).toEqual(["m"]);
    expect(await trial(host, ref)).toEqual(["m"]);
    expect(pidsIn(log)).toHaveLength(1);
    await host.shutdown();
  });

  it("shutdown ends every subprocess it started, and a later trial starts a fresh one", async () => {
    const host = new SystemHost();
    const one = commandRef();
    const two = commandRef();
    await trial(host, one.ref);
    await trial(host, two.ref);
    await host.system(moduleRef("word-module.ts"), resources);
    await host.shutdown();
    for (const { log } of [one, two]) {
      expect(methodsIn(log).at(-1)).toBe("shutdown");
      expect(await gone(pidsIn(log)[0]!, 0)).toBe(true);
    }
    await trial(host, one.ref);
    const pids = pidsIn(one.log);
    expect(pids).toHaveLength(2);
    await host.shutdown();
    expect(await gone(pids[1]!)).toBe(true);
  });
});
