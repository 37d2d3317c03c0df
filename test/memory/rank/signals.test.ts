/**
 * A section's signals and the bounds that let ranking pass over memories. Each bound is pinned to
 * its exact value (the sum's own expression at a signal's extreme, with its margin), and to the
 * cases where no bound may be claimed: a bound that is too loose only costs visits, which no
 * ranking result shows, so these tests are what keeps the bounds tight and safe.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type KindRun, SectionSignals } from "../../../src/memory/rank/signals.js";
import { recencyScore } from "../../../src/memory/scoring.js";
import { KIND_CODE, type ScopeIndex } from "../../../src/memory/store/index-columns.js";
import { type MemoryStore, openStore, scopeIndex } from "../../../src/memory/store/store.js";
import type { TokenCounter } from "../../../src/memory/tokenizer.js";
import { KINDS, type Kind, type NewMemory, type ScoreConfig } from "../../../src/memory/types.js";
import { HOUR, T0 } from "../helpers.js";

const fourCharacters: TokenCounter = { count: (text) => Math.ceil(text.length / 4) };
/** The slack the bounds add to a recency read from an access time. */
const MARGIN = 1e-12;

const stores: MemoryStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** A memory of `kind` last accessed `hoursAgo` before T0 (negative: after it). */
function memory(id: string, kind: Kind, hoursAgo: number, importance: number): NewMemory {
  const at = T0 - hoursAgo * HOUR;
  return { id, scope: "u", kind, text: id, createdAt: Math.min(at, T0), lastAccessedAt: at, importance };
}

/** Two facts (1 h ago, importance 3; 5 h ago, importance 8) and an episode (2 h ago, importance 5). */
const THREE = [memory("s1", "semantic", 1, 3), memory("s5", "semantic", 5, 8), memory("e2", "episodic", 2, 5)];

interface Options {
  kind?: Kind | null;
  relDivisor?: number;
  memo?: (decayRate: number, unitMs: number) => Float64Array;
}

function signalsOver(memories: NewMemory[], score: Partial<ScoreConfig>, options: Options = {}): { signals: SectionSignals; index: ScopeIndex } {
  const store = openStore(":memory:", { tokenizer: fourCharacters });
  stores.push(store);
  store.rememberMany(memories);
  const index = scopeIndex(store, "u")!;
  const kind = options.kind ?? null;
  const kinds = kind === null ? KINDS.map((_, k) => k) : [KIND_CODE[kind]];
  const runs: KindRun[] = kinds.flatMap((k) => index.accessOrder.runsOf(k).flatMap((run) => (run.length > 0 ? [{ kind: k, run }] : [])));
  const config: ScoreConfig = { weights: [1, 1, 1], decayRate: 0.5, kindDecay: {}, unitMs: HOUR, normalise: "none", relevance: "words", ...score };
  return { signals: new SectionSignals(index, config, T0, options.relDivisor ?? 0, options.memo, runs), index };
}

const slotOf = (index: ScopeIndex, id: string) => index.slotOf(id)!;

describe("the best total a relevance can reach (cannotReachWith)", () => {
  it("adds the newest recency in the section, with its margin, and the highest importance", () => {
    const { signals } = signalsOver(THREE, {});
    // Newest: s1, an hour ago at decay 0.5; importance 0.3 to 0.8.
    const best = 0.1 + (0.5 + MARGIN) + 0.8;
    expect(signals.cannotReachWith(0.1, best)).toBe(false);
    expect(signals.cannotReachWith(0.1, best + 1e-12)).toBe(true);
  });

  it("reads only the section's own kind", () => {
    const { signals } = signalsOver(THREE, {}, { kind: "episodic" });
    const best = 0.1 + (0.25 + MARGIN) + 0.5;
    expect(signals.cannotReachWith(0.1, best)).toBe(false);
    expect(signals.cannotReachWith(0.1, best + 1e-12)).toBe(true);
  });

  it("takes recency 0 when recency counts against, and the lowest importance when importance does", () => {
    const { signals } = signalsOver(THREE, { weights: [1, -1, -1] });
    const best = 0.1 + -1 * 0 + -1 * 0.3;
    expect(signals.cannotReachWith(0.1, best)).toBe(false);
    expect(signals.cannotReachWith(0.1, best + 1e-12)).toBe(true);
  });

  it("caps the recency at 1 for a kind that does not decay", () => {
    const { signals } = signalsOver(THREE, { kindDecay: { semantic: 1 } });
    const best = 0.1 + 1 + 0.8;
    expect(signals.cannotReachWith(0.1, best)).toBe(false);
    expect(signals.cannotReachWith(0.1, best + 1e-12)).toBe(true);
  });

  it("assumes recency 1 and importance from 0 to 1 in a section with no memory", () => {
    const { signals } = signalsOver(THREE, {}, { kind: "working" });
    expect(signals.cannotReachWith(0.1, 0.1 + 1 + 1)).toBe(false);
    expect(signals.cannotReachWith(0.1, 2.1 + 1e-12)).toBe(true);
    const against = signalsOver(THREE, { weights: [1, 1, -1] }, { kind: "working" }).signals;
    expect(against.cannotReachWith(0.1, 0.1 + 1 + -1 * 0)).toBe(false);
    expect(against.cannotReachWith(0.1, 1.1 + 1e-12)).toBe(true);
  });
});

describe("the bound on a memory that matches nothing (unmatchedBound)", () => {
  const semantic = KIND_CODE.semantic;

  it("is the recency at the run's next access time plus the margin, and the run's highest importance", () => {
    const { signals } = signalsOver(THREE, {});
    expect(signals.unmatchedBound(semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(1 * 0 + 1 * (0.25 + MARGIN) + 1 * 0.8);
  });

  it("takes the margin off and the lowest importance when those signals count against", () => {
    const { signals } = signalsOver(THREE, { weights: [1, -1, -2] });
    expect(signals.unmatchedBound(semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(1 * 0 + -1 * (0.25 - MARGIN) + -2 * 0.3);
  });

  it("uses the decay of the run's kind", () => {
    const { signals } = signalsOver(THREE, { kindDecay: { semantic: 0.9 } });
    const rec = recencyScore(T0, T0 - 2 * HOUR, 0.9, HOUR);
    expect(signals.unmatchedBound(semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(1 * 0 + 1 * (rec + MARGIN) + 1 * 0.8);
  });
});

describe("the bounds under min-max scaling", () => {
  // Relevance scaled over 0 to 0.4, recency over 0 to 0.5, importance over 0.3 to 0.8.
  const ranges = { rel: { min: 0, max: 0.4 }, rec: { min: 0, max: 0.5 }, imp: { min: 0.3, max: 0.8 } };

  it("weigh each signal scaled into its range: relevance", () => {
    const { signals } = signalsOver(THREE, { weights: [2, 3, 1] });
    signals.scaleOver(ranges);
    // Relevance 0.1 scales to 0.25, the best recency (0.5 + margin) to just above 1, importance 0.8 to 1.
    const best = 2 * (0.1 / 0.4) + 3 * ((0.5 + MARGIN) / 0.5) + 1 * ((0.8 - 0.3) / (0.8 - 0.3));
    expect(signals.cannotReachWith(0.1, best)).toBe(false);
    expect(signals.cannotReachWith(0.1, best + 1e-9)).toBe(true);
  });

  it("weigh each signal scaled into its range: recency", () => {
    const { signals } = signalsOver(THREE, { weights: [2, 3, 1] });
    signals.scaleOver(ranges);
    // Recency 0.25 two hours ago scales to 0.5; importance 0.8 to 1.
    expect(signals.unmatchedBound(KIND_CODE.semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(2 * 0 + 3 * ((0.25 + MARGIN) / 0.5) + 1 * 1);
  });
});

describe("the cutoff below which relevance alone rules a memory out (relevanceCutoff)", () => {
  it("is the relevance that just reaches the bar, within rounding, on the backend's raw scale", () => {
    const { signals } = signalsOver(THREE, { weights: [2, 1, 1] }, { relDivisor: 4 });
    // 2 · raw / 4 + (0.5 + margin) + 0.8 = 2 at raw = 1.4 − 2e-12.
    const cutoff = signals.relevanceCutoff(2);
    expect(cutoff).toBeGreaterThan(1.4 - 1e-9);
    expect(cutoff).toBeLessThan(1.4);
    expect(signals.cannotReachWith(signals.relevance(cutoff), 2)).toBe(true);
    expect(signals.cannotReachWith(signals.relevance(1.4 + 1e-9), 2)).toBe(false);
  });

  it("reads raw relevance as it is when there is no divisor", () => {
    const { signals } = signalsOver(THREE, { weights: [2, 1, 1] });
    const cutoff = signals.relevanceCutoff(2);
    expect(cutoff).toBeGreaterThan(0.35 - 1e-9);
    expect(cutoff).toBeLessThan(0.35);
    expect(signals.cannotReachWith(cutoff, 2)).toBe(true);
  });

  it("steps below a guess that reaches the bar exactly, whatever the signs of the bar and the rest", () => {
    // No decay: the best recency is 1, and importance 5 scores 0.5, so the rest is exactly 1.5.
    const flat = [memory("a", "semantic", 1, 5), memory("b", "episodic", 2, 5)];
    const { signals } = signalsOver(flat, { kindDecay: { semantic: 1, episodic: 1 } });
    for (const bar of [2, 0, -1]) {
      const solution = bar - 1.5;
      expect(signals.cannotReachWith(solution, bar)).toBe(false);
      const cutoff = signals.relevanceCutoff(bar);
      expect(cutoff).toBeLessThan(solution);
      expect(cutoff).toBeGreaterThan(solution - 1e-9);
      expect(signals.cannotReachWith(cutoff, bar)).toBe(true);
    }
  });

  it("claims none when the solution overflows, as under a relevance weight near the smallest number", () => {
    const { signals } = signalsOver(THREE, { weights: [Number.MIN_VALUE, 1, 1] });
    expect(signals.relevanceCutoff(2)).toBe(Number.NEGATIVE_INFINITY);
  });

  it("is claimed only for a positive relevance weight and unscaled signals", () => {
    expect(signalsOver(THREE, { weights: [0, 1, 1] }).signals.relevanceCutoff(2)).toBe(Number.NEGATIVE_INFINITY);
    expect(signalsOver(THREE, { weights: [-1, 1, 1] }).signals.relevanceCutoff(2)).toBe(Number.NEGATIVE_INFINITY);
    const scaled = signalsOver(THREE, {}).signals;
    scaled.scaleOver({ rel: { min: 0, max: 1 }, rec: { min: 0, max: 1 }, imp: { min: 0, max: 1 } });
    expect(scaled.relevanceCutoff(2)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe("whether one memory can reach the bar (cannotReach)", () => {
  // s0 was used just now, so the section's best recency is 1; s10 ten hours ago, s-2 in two hours.
  const memories = [memory("s0", "semantic", 0, 5), memory("s10", "semantic", 10, 5), memory("s-2", "semantic", -2, 5)];

  it("rules a memory out at the section's best recency and its own importance", () => {
    const { signals, index } = signalsOver(memories, {});
    expect(signals.cannotReach(slotOf(index, "s0"), 0.1, 0.1 + 1 + 0.5)).toBe(false);
    expect(signals.cannotReach(slotOf(index, "s0"), 0.1, 1.6 + 1e-12)).toBe(true);
  });

  it("then bounds an old memory's recency without pow: decay^x ≤ (1 + 1e-9) / (1 + x · ln(1/decay))", () => {
    const { signals, index } = signalsOver(memories, {});
    const bound = 0.1 + (1 + 1e-9) / (1 + 10 * -Math.log(0.5)) + 0.5;
    expect(signals.cannotReach(slotOf(index, "s10"), 0.1, bound)).toBe(false);
    expect(signals.cannotReach(slotOf(index, "s10"), 0.1, bound + 1e-12)).toBe(true);
  });

  it("bounds recency by 0 under a decay of 0", () => {
    const { signals, index } = signalsOver(memories, { kindDecay: { semantic: 0 } });
    expect(signals.cannotReach(slotOf(index, "s10"), 0.1, 0.6 + 1e-12)).toBe(true);
  });

  it("claims nothing from recency when it counts against, does not decay, or lies in the future", () => {
    const against = signalsOver(memories, { weights: [1, -1, 1] });
    // Its true total is 0.1 − 0.5^10 + 0.5, above 0.59: a recency bound would wrongly rule it out.
    expect(against.signals.cannotReach(slotOf(against.index, "s10"), 0.1, 0.59)).toBe(false);
    const flat = signalsOver(memories, { kindDecay: { semantic: 1 } });
    expect(flat.signals.cannotReach(slotOf(flat.index, "s10"), 0.1, 1.59)).toBe(false);
    const { signals, index } = signalsOver(memories, {});
    // Used in two hours: its recency clamps to 1, a total of 1.6.
    expect(signals.cannotReach(slotOf(index, "s-2"), 0.1, 1.59)).toBe(false);
  });
});

describe("no bound is claimed when the signals are not monotone", () => {
  for (const [name, score] of [
    ["rank recency", { recency: "rank" as const }],
    ["an infinite weight", { weights: [1, Number.POSITIVE_INFINITY, 1] as [number, number, number] }],
    ["a negative decay rate", { decayRate: -0.5 }],
  ] as const) {
    it(`under ${name}`, () => {
      const { signals, index } = signalsOver(THREE, score);
      expect(signals.unmatchedBound(KIND_CODE.semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(Number.POSITIVE_INFINITY);
      expect(signals.cannotReach(slotOf(index, "s5"), 0, 1e9)).toBe(false);
      expect(signals.cannotReachWith(0, 1e9)).toBe(false);
      expect(signals.relevanceCutoff(2)).toBe(Number.NEGATIVE_INFINITY);
    });
  }

  it("but a decay of 0 is monotone", () => {
    const { signals } = signalsOver(THREE, { decayRate: 0 });
    expect(signals.unmatchedBound(KIND_CODE.semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(1 * 0 + 1 * (0 + MARGIN) + 1 * 0.8);
  });
});

describe("recency", () => {
  it("is shared through the memo: computed once into it, and read back from it", () => {
    const memo = new Float64Array(3).fill(Number.NaN);
    const { signals, index } = signalsOver(THREE, {}, { memo: () => memo });
    const s5 = slotOf(index, "s5");
    expect(signals.recency(s5)).toBe(0.5 ** 5);
    expect(memo[s5]).toBe(0.5 ** 5);
    memo[s5] = 0.125;
    expect(signals.recency(s5)).toBe(0.125);
  });

  it("asks the memo for the decay and unit of each memory's kind", () => {
    const memo = vi.fn(() => new Float64Array(3).fill(Number.NaN));
    signalsOver(THREE, { kindDecay: { episodic: 0.9 }, unitMs: 60_000 }, { memo });
    expect(memo.mock.calls).toContainEqual([0.9, 60_000]);
    expect(memo.mock.calls).toContainEqual([0.5, 60_000]);
  });

  it("is a position under rank recency, never shared, and known only for candidates", () => {
    const memo = vi.fn(() => new Float64Array(3).fill(Number.NaN));
    const { signals, index } = signalsOver(THREE, { recency: "rank" }, { memo });
    expect(memo).not.toHaveBeenCalled();
    signals.positionsOver([slotOf(index, "s1"), slotOf(index, "s5")]);
    expect(signals.recency(slotOf(index, "s5"))).toBe(0.5 ** 2);
    expect(() => signals.recency(slotOf(index, "e2"))).toThrow(`rank recency: slot ${slotOf(index, "e2")} is not a candidate of the section`);
  });

  it("walks oldest first only when it counts against", () => {
    expect(signalsOver(THREE, { weights: [1, -1, 1] }).signals.oldestFirst).toBe(true);
    expect(signalsOver(THREE, { weights: [1, 0, 1] }).signals.oldestFirst).toBe(false);
    expect(signalsOver(THREE, { weights: [1, 1, 1] }).signals.oldestFirst).toBe(false);
  });
});

describe("the bounds' preconditions, one signal or kind at a time", () => {
  it("claims no bound when the relevance weight alone is infinite", () => {
    const { signals, index } = signalsOver(THREE, { weights: [Number.NEGATIVE_INFINITY, 1, 1] });
    expect(signals.unmatchedBound(KIND_CODE.semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(Number.POSITIVE_INFINITY);
    expect(signals.cannotReachWith(0.1, 0)).toBe(false);
    expect(signals.cannotReach(slotOf(index, "s5"), 0.1, 0)).toBe(false);
  });

  it("claims no bound when one kind alone decays at a negative rate", () => {
    const { signals, index } = signalsOver(THREE, { kindDecay: { episodic: -0.5 } });
    expect(signals.unmatchedBound(KIND_CODE.semantic, T0 - 2 * HOUR, 0.3, 0.8)).toBe(Number.POSITIVE_INFINITY);
    expect(signals.cannotReachWith(0, 1e9)).toBe(false);
    expect(signals.cannotReach(slotOf(index, "s5"), 0, 1e9)).toBe(false);
  });

  it("takes the best recency from the kinds that have memories, not from a kind without any that does not decay", () => {
    const { signals } = signalsOver(THREE, { kindDecay: { working: 1 } });
    const best = 0.1 + (0.5 + MARGIN) + 0.8;
    expect(signals.cannotReachWith(0.1, best)).toBe(false);
    expect(signals.cannotReachWith(0.1, best + 1e-12)).toBe(true);
  });
});
