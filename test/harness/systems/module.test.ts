import { describe, expect, it } from "vitest";
import { SystemError, type SystemMemory } from "../../../src/harness/systems/contract.js";
import { moduleSystem } from "../../../src/harness/systems/module.js";
import { repoPath } from "../temp-files.js";

const fixture = (name: string) => repoPath(`test/fixtures/systems/${name}`);

const memory = (id: string, text: string, createdAt: number): SystemMemory => ({
  id,
  kind: "semantic",
  text,
  createdAt,
  occurredAt: null,
  supersedes: null,
  expiresAt: null,
  source: null,
  tokens: 5,
});

async function startFailure(file: string): Promise<string> {
  const error = await moduleSystem(fixture(file), {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SystemError);
  expect((error as SystemError).call).toBe("start");
  return (error as SystemError).problem;
}

describe("moduleSystem", () => {
  it("loads a TypeScript module and makes the system with its default export, given the experiment's options", async () => {
    const system = await moduleSystem(fixture("word-module.ts"), { limit: 1 });
    const scope = await system.open("user");
    await scope.write([memory("tea", "The user drinks green tea.", 1), memory("tea2", "More tea on Sunday.", 2), memory("cat", "The cat is Miso.", 3)]);
    // Two memories share "tea"; the option lets one through.
    expect(await scope.retrieve({ query: "tea?", now: 10, budget: null })).toEqual({ ids: ["tea"] });
    await scope.close();
  });

  it("waits for a factory that makes the system asynchronously", async () => {
    const system = await moduleSystem(fixture("async-module.mjs"), { flavour: "plain" });
    expect((system as unknown as { options: unknown }).options).toEqual({ flavour: "plain" });
    expect(await (await system.open("user")).retrieve({ query: "q", now: 0, budget: 5 })).toEqual({ ids: [] });
  });

  it("makes a new system at each call, from the module loaded once", async () => {
    const loaded = (await import(fixture("word-module.ts"))) as { made: number };
    const before = loaded.made;
    const first = await moduleSystem(fixture("word-module.ts"), {});
    const second = await moduleSystem(fixture("word-module.ts"), {});
    expect(first).not.toBe(second);
    expect(loaded.made).toBe(before + 2);
  });

  it("refuses a module without a default function, pointing to the tutorial", async () => {
    expect(await startFailure("no-default-module.mjs")).toBe("the module's default export is not a function that makes the system (see the README's tutorial)");
  });

  it("refuses a module whose factory throws, quoting what it threw", async () => {
    expect(await startFailure("throwing-module.mjs")).toBe("making the system failed (no API key in options.apiKey)");
  });

  it("refuses a factory that returns something without open()", async () => {
    expect(await startFailure("no-open-module.mjs")).toBe("the module's default export did not return a system with an open(scope) method");
  });

  it("refuses a module that fails as it is imported, or is not there", async () => {
    expect(await startFailure("failing-import-module.mjs")).toMatch(/^the module could not be loaded \(.*cannot find the index file.*\)$/);
    expect(await startFailure("no-such-module.ts")).toMatch(/^the module could not be loaded \(.+\)$/);
  });
});
