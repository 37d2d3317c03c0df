import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import type { TokenCounter } from "../../../src/memory/tokenizer.js";
import type { RetrievalPolicy } from "../../../src/memory/types.js";
import { variationSchema } from "../../../src/harness/scenario/variation.js";
import { metricNames, metricValue } from "../../../src/harness/metrics.js";
import type { AskResult } from "../../../src/harness/results/types.js";
import { runPolicyTrial } from "./trials.js";
import { runTrial, type TrialInput } from "../../../src/harness/runner/trial.js";
import { SystemError } from "../../../src/harness/systems/contract.js";
import { SystemHost } from "../../../src/harness/systems/index.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { repoPath } from "../temp-files.js";
import { scenarioSchema, type ScenarioInput } from "../../../src/harness/scenario/schema.js";

/** Counts words, so token figures can be checked by hand; the trial logic does not depend on the tokenizer. */
const words: TokenCounter = { count: (text) => text.split(/\s+/).filter(Boolean).length };

const SCENARIO = scenarioSchema.parse({
  name: "trial-spec",
  description: "a correction, an expiring note, a declared stale fact, an ask without gold and a write-back",
  steps: [
    {
      remember: [
        { id: "home-old", kind: "semantic", text: "The user lives in Paris.", importance: 6 },
        { id: "tea", kind: "semantic", text: "The user drinks green tea every morning.", importance: 5 },
        { id: "code", kind: "working", text: "Temporary door code 1234.", expires: "2h" },
        { id: "obs", kind: "semantic", text: "The user booked a table for Friday.", source: "D1:3" },
      ],
    },
    { advance: "1h" },
    { remember: { id: "home", kind: "semantic", text: "The user now lives in Berlin.", corrects: "home-old", importance: 7 } },
    { ask: { id: "where", query: "Where does the user live?", expect: ["home"] } },
    { ask: { id: "no-gold", query: "Anything about tea?", stale: ["tea"] } },
    { advance: "3h" },
    { ask: { id: "code-later", query: "What is the temporary door code?", expect: ["code"] } },
    { ask: { id: "recall-turn", query: "What did I ask about where the user lives?", expect: ["turn:where"] } },
    { ask: { id: "by-source", query: "Which table did the user book?", expect: ["D1:3"] } },
  ],
} satisfies ScenarioInput);

type Input = Parameters<typeof runPolicyTrial>[0];
const input = (overrides: Partial<Input> = {}): Input => ({
  scenario: SCENARIO,
  ablation: "full",
  policy: fullPolicy,
  seed: 1,
  variation: variationSchema.parse({}),
  matchSource: false,
  detail: true,
  ...overrides,
});

const askOf = (asks: AskResult[], id: string) => asks.find((a) => a.ask === id)!;

describe("runTrial", async () => {
  const trial = await runPolicyTrial(input(), words);

  it("names its scenario, ablation and seed and lists the asks in scenario order", async () => {
    expect(trial).toMatchObject({ scenario: "trial-spec", ablation: "full", seed: 1 });
    expect(trial.asks.map((a) => a.ask)).toEqual(["where", "no-gold", "code-later", "recall-turn", "by-source"]);
  });

  it("ranks the gold memory within its kind's section and records why", async () => {
    const where = askOf(trial.asks, "where");
    expect(where.ranks).toEqual([1]);
    expect(where.coverage).toBe(1);
    const gold = where.detail!.gold[0];
    expect(gold).toMatchObject({ id: "home", section: "semantic" });
    // Facts resist decay in the full policy (rec 1); importance 7 of 10; two of four query words shared.
    expect(gold.rec).toBe(1);
    expect(gold.imp).toBe(0.7);
    expect(gold.total).toBeCloseTo(gold.rel! + gold.rec! + gold.imp!, 6);
    expect(where.detail!.kept).toContain("home");
  });

  it("never lets a corrected memory reach the block, and counts a declared stale one that does as leaked", async () => {
    for (const ask of trial.asks) expect(ask.detail!.kept).not.toContain("home-old");
    const noGold = askOf(trial.asks, "no-gold");
    expect(noGold.detail!.kept).toContain("tea");
    expect(noGold.leaked).toEqual(["tea"]);
    expect(metricValue(noGold, "leakage")).toBe(1);
  });

  it("keeps an ask without gold memories, scoring 0 on rank metrics and n/a on coverage", async () => {
    const noGold = askOf(trial.asks, "no-gold");
    expect(noGold.ranks).toEqual([]);
    expect(noGold.coverage).toBeNull();
    for (const metric of metricNames([1, 3]).filter((m) => /recall|mrr|ndcg/.test(m))) expect(metricValue(noGold, metric)).toBe(0);
  });

  it("counts an expired memory as missing once it has expired", async () => {
    const later = askOf(trial.asks, "code-later");
    expect(later.ranks).toEqual([null]);
    expect(later.coverage).toBe(0);
    expect(later.detail!.gold[0]).toMatchObject({ id: "code", section: null, rel: 0, rec: 0, imp: 0, total: 0 });
  });

  it("writes each ask back under its derived id, so a later ask can find it; without write-back it cannot", async () => {
    expect(askOf(trial.asks, "recall-turn").ranks[0]).not.toBeNull();
    const noWriteBack: RetrievalPolicy = { ...fullPolicy, writeBack: false };
    expect(askOf((await runPolicyTrial(input({ policy: noWriteBack }), words)).asks, "recall-turn").ranks).toEqual([null]);
  });

  it("counts block tokens per section and in total", async () => {
    for (const ask of trial.asks) {
      const perSection = Object.values(ask.detail!.sectionTokens).reduce((a, b) => a + b, 0);
      expect(ask.tokens).toBe(perSection);
    }
    expect(askOf(trial.asks, "where").tokens).toBeGreaterThan(0);
  });

  it("counts a memory whose source is the gold id only when the experiment matches sources", async () => {
    expect(askOf(trial.asks, "by-source").ranks).toEqual([null]);
    const matching = askOf((await runPolicyTrial(input({ matchSource: true }), words)).asks, "by-source");
    expect(matching.ranks[0]).not.toBeNull();
    expect(matching.coverage).toBe(1);
  });

  it("leaves out kept ids and score breakdowns when detail is off", async () => {
    const lean = (await runPolicyTrial(input({ detail: false }), words));
    for (const ask of lean.asks) expect(ask.detail).toBeUndefined();
    expect(lean.asks.map(({ detail: _, ...rest }) => rest)).toEqual(trial.asks.map(({ detail: _, ...rest }) => rest));
  });

  it("gives the same result every time: each trial starts from a fresh store", async () => {
    expect((await runPolicyTrial(input(), words))).toEqual(trial);
  });

  it("lists asks in scenario order whatever order a shuffling seed asked them in", async () => {
    const shuffle = variationSchema.parse({ shuffle: true });
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      expect((await runPolicyTrial(input({ seed, variation: shuffle }), words)).asks.map((a) => a.ask)).toEqual(trial.asks.map((a) => a.ask));
    }
  });
});

describe("runTrial when a system fails", () => {
  const module = (closeThrows: boolean): TrialInput => ({
    scenario: SCENARIO,
    ablation: "broken",
    system: { type: "module", file: repoPath("test/fixtures/systems/hanging-close-module.mjs"), options: { closeThrows }, timeoutMs: 300 },
    writeBack: false,
    budget: 100,
    seed: 1,
    variation: variationSchema.parse({}),
    matchSource: false,
    detail: false,
  });

  it.each([false, true])("reports the failed call, not the clean-up, whether close hangs or throws (close throws: %s)", async (closeThrows) => {
    const error = await runTrial(module(closeThrows), { tokens: words, host: new SystemHost() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as Error).message).toBe('system "broken" failed in trial trial-spec / seed 1 at retrieve call 1 (at ask where): failed (the index is gone)');
    expect((error as Error).cause).toBeInstanceOf(SystemError);
  });

  it("with skipping on, records the trial as skipped, its asks as empty retrievals", async () => {
    const trial = await runTrial({ ...module(false), skipOnSystemError: true }, { tokens: words, host: new SystemHost() });
    expect(trial.skipped).toEqual({ call: "retrieve", message: 'system "broken" failed in trial trial-spec / seed 1 at retrieve call 1 (at ask where): failed (the index is gone)' });
    expect(trial.asks.map((a) => [a.ranks.every((r) => r === null), a.tokens])).toEqual(trial.asks.map(() => [true, 0]));
  });
});
