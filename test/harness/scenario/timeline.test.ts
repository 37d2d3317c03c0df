import { describe, expect, it } from "vitest";
import type { NewMemory } from "../../../src/memory/types.js";
import { variationSchema, type Variation } from "../../../src/harness/scenario/variation.js";
import { loadExperiment } from "../../../src/harness/experiment/load.js";
import { trialInputs } from "../../../src/harness/runner/run.js";
import { scenarioSchema, type ScenarioInput, type ScenarioSpec } from "../../../src/harness/scenario/schema.js";
import { buildTimeline, type TimelineEvent } from "../../../src/harness/scenario/timeline.js";
import { useTempDir } from "../temp-files.js";

const HOUR = 3_600_000;
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

const variation = (settings: Partial<Variation> = {}): Variation => variationSchema.parse(settings);

/**
 * A timeline with every feature the variation touches: batches of memories (one holding a
 * correction), clock advances of different lengths, three asks at one moment, a distractor pool,
 * and a write after the last ask.
 */
const INPUT: ScenarioInput = {
  name: "timeline-spec",
  description: "exercises jitter, distractors, shuffling and importance noise",
  start: "2024-01-01T00:00:00Z",
  pool: [
    { kind: "episodic", text: "Distractor zero.", importance: 1 },
    { kind: "semantic", text: "Distractor one.", importance: 10 },
    { kind: "episodic", text: "Distractor two.", importance: 4 },
    { kind: "working", text: "Distractor three.", importance: 6 },
    { kind: "procedural", text: "Distractor four.", importance: 5 },
  ],
  steps: [
    {
      remember: [
        { id: "low", kind: "semantic", text: "Least important.", importance: 1 },
        { id: "high", kind: "semantic", text: "Most important.", importance: 10 },
        { id: "mid", kind: "episodic", text: "In between.", importance: 5 },
        { id: "other", kind: "working", text: "Another note.", importance: 3 },
      ],
    },
    { advance: "10h" },
    {
      remember: [
        { id: "old-fact", kind: "semantic", text: "The old fact.", importance: 6 },
        { id: "new-fact", kind: "semantic", text: "The new fact.", corrects: "old-fact", importance: 6 },
        { id: "aside", kind: "episodic", text: "An aside.", importance: 2 },
      ],
    },
    { advance: "2d" },
    { ask: { id: "q1", query: "first question", expect: ["low"] } },
    { ask: { id: "q2", query: "second question", expect: ["high"] } },
    { ask: { id: "q3", query: "third question", expect: ["mid"] } },
    { advance: "3h" },
    { remember: [{ id: "later", kind: "episodic", text: "Something later.", importance: 7 }] },
    { advance: 1 },
    { ask: { id: "q4", query: "last question", expect: ["later"] } },
    { advance: "1h" },
    { remember: [{ id: "after-last-ask", kind: "episodic", text: "Written after every ask.", importance: 5 }] },
  ],
};
const SCENARIO: ScenarioSpec = scenarioSchema.parse(INPUT);

const FULL_VARIATION = variation({ jitter: 0.2, distractors: 3, shuffle: true, importanceNoise: 2 });

const memoriesOf = (events: TimelineEvent[]): NewMemory[] => events.flatMap((e) => (e.type === "remember" ? e.memories : []));
const askIds = (events: TimelineEvent[]) => events.flatMap((e) => (e.type === "ask" ? [e.ask.id] : []));
const declaredImportance = new Map(SCENARIO.steps.flatMap((s) => s.remember ?? []).map((m) => [m.id, m.importance]));

describe("buildTimeline", () => {
  it("plays the steps on the virtual clock as written when there is no variation", () => {
    const start = Date.parse("2024-01-01T00:00:00Z");
    const events = buildTimeline(SCENARIO, 1, variation());
    expect(events.map((e) => [e.type, e.at - start])).toEqual([
      ["remember", 0],
      ["remember", 10 * HOUR],
      ["ask", 58 * HOUR],
      ["ask", 58 * HOUR],
      ["ask", 58 * HOUR],
      ["remember", 61 * HOUR],
      ["ask", 62 * HOUR],
      ["remember", 63 * HOUR],
    ]);
    expect(askIds(events)).toEqual(["q1", "q2", "q3", "q4"]);
    expect(memoriesOf(events).map((m) => m.id)).toEqual([
      "low", "high", "mid", "other", "old-fact", "new-fact", "aside", "later", "after-last-ask",
    ]);
    const newFact = memoriesOf(events).find((m) => m.id === "new-fact")!;
    expect(newFact).toMatchObject({ createdAt: start + 10 * HOUR, lastAccessedAt: start + 10 * HOUR, supersedes: "old-fact", importance: 6 });
  });

  it("gives deep-equal timelines for the same seed", () => {
    for (const seed of [1, 2, 99]) expect(buildTimeline(SCENARIO, seed, FULL_VARIATION)).toEqual(buildTimeline(SCENARIO, seed, FULL_VARIATION));
  });

  it("gives different timelines for different seeds", () => {
    const timelines = [1, 2, 3, 4, 5].map((seed) => JSON.stringify(buildTimeline(SCENARIO, seed, FULL_VARIATION)));
    expect(new Set(timelines).size).toBe(timelines.length);
  });

  it("scales each clock advance by a factor within [1 − jitter, 1 + jitter], and uses the window", () => {
    const jitter = 0.2;
    // Without shuffling or distractors, event i comes from the i-th step that is not an advance.
    const declaredGaps: number[] = [];
    let pending = 0;
    for (const step of SCENARIO.steps) {
      if (step.advance !== undefined) pending += step.advance;
      else {
        declaredGaps.push(pending);
        pending = 0;
      }
    }
    const factors: number[] = [];
    for (const seed of SEEDS) {
      const events = buildTimeline(SCENARIO, seed, variation({ jitter }));
      expect(events[0].at).toBe(SCENARIO.start);
      events.slice(1).forEach((event, i) => {
        const gap = event.at - events[i].at;
        const declared = declaredGaps[i + 1];
        if (declared === 0) return expect(gap).toBe(0);
        // Each advance is rounded to a whole millisecond.
        expect(gap).toBeGreaterThanOrEqual(Math.floor(declared * (1 - jitter)));
        expect(gap).toBeLessThanOrEqual(Math.ceil(declared * (1 + jitter)));
        factors.push(gap / declared);
      });
    }
    expect(Math.min(...factors)).toBeLessThan(1 - jitter / 2);
    expect(Math.max(...factors)).toBeGreaterThan(1 + jitter / 2);
  });

  it("samples distractors from the pool, with ids distractor:<pool index>, only into writes before the last ask", () => {
    const chosenSets = new Set<string>();
    for (const seed of SEEDS) {
      const events = buildTimeline(SCENARIO, seed, variation({ distractors: 3 }));
      const distractors = memoriesOf(events).filter((m) => m.id!.startsWith("distractor:"));
      expect(distractors).toHaveLength(3);
      expect(new Set(distractors.map((d) => d.id)).size).toBe(3);
      for (const d of distractors) {
        const index = Number(d.id!.slice("distractor:".length));
        expect(d.id).toBe(`distractor:${index}`);
        expect(SCENARIO.pool[index]).toMatchObject({ kind: d.kind, text: d.text, importance: d.importance });
      }
      // Each distractor is written at the moment of the batch it joined.
      for (const event of events) {
        if (event.type === "remember") for (const m of event.memories) expect(m.createdAt).toBe(event.at);
      }
      const afterLastAsk = events.at(-1)!;
      expect(afterLastAsk.type === "remember" && afterLastAsk.memories.map((m) => m.id)).toEqual(["after-last-ask"]);
      chosenSets.add(distractors.map((d) => d.id).sort().join(","));
    }
    expect(chosenSets.size).toBeGreaterThan(1);
  });

  it("takes each pool entry at most once when more distractors are asked for than the pool holds", () => {
    const events = buildTimeline(SCENARIO, 3, variation({ distractors: 50 }));
    const ids = memoriesOf(events).filter((m) => m.id!.startsWith("distractor:")).map((m) => m.id).sort();
    expect(ids).toEqual(SCENARIO.pool.map((_, i) => `distractor:${i}`));
  });

  it("shuffles within a moment only: time order stays, and a correction stays after what it corrects", () => {
    const unshuffled = buildTimeline(SCENARIO, 1, variation());
    const memoryOrders = new Set<string>();
    const askOrders = new Set<string>();
    for (const seed of SEEDS) {
      const events = buildTimeline(SCENARIO, seed, variation({ shuffle: true, distractors: 5 }));
      for (let i = 1; i < events.length; i++) expect(events[i].at).toBeGreaterThanOrEqual(events[i - 1].at);
      const order = memoriesOf(events).map((m) => m.id!);
      expect(order.indexOf("new-fact")).toBeGreaterThan(order.indexOf("old-fact"));
      // The same events, only reordered.
      expect(askIds(events).sort()).toEqual(askIds(unshuffled).sort());
      expect(order.filter((id) => !id.startsWith("distractor:")).sort()).toEqual(memoriesOf(unshuffled).map((m) => m.id).sort());
      memoryOrders.add(order.filter((id) => ["low", "high", "mid", "other"].includes(id)).join(","));
      askOrders.add(askIds(events).join(","));
    }
    expect(memoryOrders.size).toBeGreaterThan(1);
    expect(askOrders.size).toBeGreaterThan(1);
    // q4 is alone at its moment, so it is always last.
    for (const order of askOrders) expect(order.endsWith("q4")).toBe(true);
  });

  it("keeps asks at one moment in order when one expects the write-back of another", () => {
    const scenario = scenarioSchema.parse({
      name: "turn-chain",
      description: "the second ask expects the first ask's write-back",
      steps: [
        { remember: { id: "oslo", kind: "semantic", text: "The user likes Oslo." } },
        { ask: { id: "q1", query: "Flights to Oslo?", expect: ["oslo"] } },
        { ask: { id: "q2", query: "What did I ask about Oslo?", expect: ["turn:q1"] } },
      ],
    } satisfies ScenarioInput);
    for (const seed of SEEDS) expect(askIds(buildTimeline(scenario, seed, variation({ shuffle: true })))).toEqual(["q1", "q2"]);
  });

  it("moves importance by at most ±noise and clamps it to 1–10", () => {
    const noise = 2;
    const seen = new Map<string, Set<number>>();
    for (const seed of SEEDS) {
      for (const m of memoriesOf(buildTimeline(SCENARIO, seed, variation({ importanceNoise: noise, distractors: 5 })))) {
        const declared = m.id!.startsWith("distractor:")
          ? SCENARIO.pool[Number(m.id!.split(":")[1])].importance!
          : declaredImportance.get(m.id!)!;
        expect(Math.abs(m.importance! - declared)).toBeLessThanOrEqual(noise);
        expect(m.importance).toBeGreaterThanOrEqual(1);
        expect(m.importance).toBeLessThanOrEqual(10);
        seen.set(m.id!, (seen.get(m.id!) ?? new Set()).add(m.importance!));
      }
    }
    expect([...seen.get("low")!].sort()).toEqual([1, 2, 3]);
    expect([...seen.get("high")!].sort((a, b) => a - b)).toEqual([8, 9, 10]);
    expect([...seen.get("mid")!].sort()).toEqual([3, 4, 5, 6, 7]);
    const exact = memoriesOf(buildTimeline(SCENARIO, 5, variation()));
    for (const m of exact) expect(m.importance).toBe(declaredImportance.get(m.id!));
  });

  it("draws each kind of variation from its own stream: adding distractors leaves the jittered times alone", () => {
    for (const seed of [1, 2, 3]) {
      const times = (v: Variation) => buildTimeline(SCENARIO, seed, v).map((e) => e.at);
      expect(times(variation({ jitter: 0.3, distractors: 4, importanceNoise: 3 }))).toEqual(times(variation({ jitter: 0.3 })));
    }
  });

  describe("does not depend on the ablation", () => {
    const temp = useTempDir();
    const scenarioFile = temp.write("timeline-spec.yaml", JSON.stringify(INPUT));
    const experimentFile = temp.write(
      "ablations.yaml",
      [
        "name: timeline-ablations",
        "description: three ablations that change retrieval, not the timeline",
        `scenarios: [${JSON.stringify(scenarioFile)}]`,
        "allowOutside: true",
        "ablations: [full, no-touch, pooled, no-write-back]",
        "seeds: [1, 2]",
        "variation: { jitter: 0.2, distractors: 3, shuffle: true, importanceNoise: 2 }",
      ].join("\n"),
    );

    it("gives every ablation of a seed the same timeline", async () => {
      const inputs = trialInputs(await loadExperiment(experimentFile));
      expect(inputs).toHaveLength(8);
      for (const seed of [1, 2]) {
        const timelines = inputs.filter((i) => i.seed === seed).map((i) => buildTimeline(i.scenario, i.seed, i.variation));
        for (const timeline of timelines.slice(1)) expect(timeline).toEqual(timelines[0]);
      }
    });

    it("leaves the scenario every ablation shares untouched", () => {
      const frozen = deepFreeze(structuredClone(SCENARIO));
      expect(() => buildTimeline(frozen, 4, FULL_VARIATION)).not.toThrow();
      expect(frozen).toEqual(SCENARIO);
    });
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
