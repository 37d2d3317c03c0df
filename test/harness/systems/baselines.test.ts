import { describe, expect, it } from "vitest";
import { BASELINE_NAMES, BASELINE_SYSTEMS } from "../../../src/harness/systems/baselines.js";
import type { SystemMemory, SystemScope } from "../../../src/harness/systems/contract.js";

const memory = (id: string, createdAt: number, tokens: number, extra: Partial<SystemMemory> = {}): SystemMemory => ({
  id,
  kind: "episodic",
  text: `memory ${id}`,
  createdAt,
  occurredAt: createdAt,
  supersedes: null,
  expiresAt: null,
  source: null,
  tokens,
  ...extra,
});

/**
 * Written in two batches and not in time order: d (t=400, 10 tokens), a (t=100, 4), c (t=300, 6),
 * then b (t=200, 5) and e, written after c at c's moment (t=300, 3), which corrects a.
 */
async function scopeOf(name: keyof typeof BASELINE_SYSTEMS): Promise<SystemScope> {
  const scope = await BASELINE_SYSTEMS[name].create().open("user");
  await scope.write([memory("d", 400, 10), memory("a", 100, 4), memory("c", 300, 6)]);
  await scope.write([memory("b", 200, 5), memory("e", 300, 3, { supersedes: "a", kind: "semantic" })]);
  return scope;
}

const ask = (budget: number | null) => ({ query: "anything at all", now: 1000, budget });

describe("the baselines", () => {
  it("are recent-window and full-context, each with a note for the reports", () => {
    expect(BASELINE_NAMES).toEqual(["recent-window", "full-context"]);
    for (const name of BASELINE_NAMES) expect(BASELINE_SYSTEMS[name].note.length).toBeGreaterThan(20);
  });

  it("make a fresh, empty scope each time, and rank nothing after a scope is closed", async () => {
    const system = BASELINE_SYSTEMS["recent-window"].create();
    const first = await system.open("user");
    await first.write([memory("a", 100, 4)]);
    const second = await system.open("user");
    expect(await second.retrieve(ask(null))).toEqual({ ids: [] });
    await first.close();
    expect(await first.retrieve(ask(null))).toEqual({ ids: [] });
  });
});

describe("recent-window", () => {
  it("keeps the newest memories that fit the budget, newest first, the later-written first among equals", async () => {
    // Newest first: d (10), e (3), c (6), b (5), a (4).
    const scope = await scopeOf("recent-window");
    expect((await scope.retrieve(ask(19))).ids).toEqual(["d", "e", "c"]);
    expect((await scope.retrieve(ask(24))).ids).toEqual(["d", "e", "c", "b"]);
  });

  it("stops at the first memory that does not fit, though an older, smaller one would", async () => {
    const scope = await scopeOf("recent-window");
    // d and e use 13 of 17; c (6) does not fit, and a (4), older still, is not reached.
    expect((await scope.retrieve(ask(17))).ids).toEqual(["d", "e"]);
    expect((await scope.retrieve(ask(9))).ids).toEqual([]);
  });

  it("keeps everything without a budget, and a corrected memory until it scrolls out", async () => {
    const scope = await scopeOf("recent-window");
    expect((await scope.retrieve(ask(null))).ids).toEqual(["d", "e", "c", "b", "a"]);
  });

  it("gives only ids: no block and no sections", async () => {
    const reply = await (await scopeOf("recent-window")).retrieve(ask(null));
    expect(Object.keys(reply)).toEqual(["ids"]);
  });
});

describe("full-context", () => {
  it("returns every memory written, oldest first, whatever the budget", async () => {
    const scope = await scopeOf("full-context");
    const everything = ["a", "b", "c", "e", "d"];
    for (const budget of [null, 1, 19, 10_000]) expect((await scope.retrieve(ask(budget))).ids, `budget ${budget}`).toEqual(everything);
  });
});
