import { askRelevance, openStore, PolicyKeys, retrieve, writeBack } from "../../memory/index.js";
import type { TokenCounter } from "../../memory/index.js";
import type { Block, Kind, RankedMemory, RetrievalPolicy } from "../../memory/index.js";
import type { Variation } from "../experiment/schema.js";
import { type AskResult, type GoldDetail, NEIGHBOURS, type NeighbourDetail, type Trial } from "../results/types.js";
import type { ScenarioSpec } from "../scenario/schema.js";
import { buildTimeline, SCENARIO_VECTOR_MODEL } from "../scenario/timeline.js";
import { writeBackId } from "../scenario/validate.js";

/** Everything one (scenario, ablation, seed) needs; plain data, so it can cross to a worker. */
export interface TrialInput {
  scenario: ScenarioSpec;
  ablation: string;
  policy: RetrievalPolicy;
  seed: number;
  variation: Variation;
  matchSource: boolean;
  detail: boolean;
  /**
   * Rank gold memories only within this many of their section's first (see
   * RetrieveRequest.locateWithin); deeper ones count as not found. Only for callers that read
   * ranks up to that depth alone, as a sweep's objective recall@k does.
   */
  locateWithin?: number;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Plays one timeline through the real memory system, on the calls a library user makes: open a
 * store, remember, retrieve, write back. Each trial gets a fresh in-memory store.
 */
export function runTrial(input: TrialInput, tokenizer: TokenCounter): Trial {
  return runTrialUnder(input, [{ name: input.ablation, policy: input.policy }], tokenizer)[0];
}

/** A policy an ask is ranked under, named as its trial will be. */
export interface NamedPolicy {
  name: string;
  policy: RetrievalPolicy;
}

/**
 * Plays one timeline once and ranks each ask under every one of `policies`, over the same store
 * state, with the ask's relevance scored once and shared: one trial per policy, each exactly what
 * runTrial gives for that policy alone. The store evolves under `input.policy` (its write-back),
 * so this holds only when no policy touches (retrieval then changes nothing) and all write back
 * as it does; anything else is refused, since later asks would depend on earlier retrievals.
 */
export function runTrialUnder(input: TrialInput, policies: readonly NamedPolicy[], tokenizer: TokenCounter): Trial[] {
  const { scenario } = input;
  if (policies.length > 1) {
    const diverging = policies.find((p) => p.policy.touch || p.policy.writeBack !== input.policy.writeBack);
    if (diverging !== undefined) {
      throw new Error(`policy "${diverging.name}" touches or writes back differently: its timeline cannot be shared with others`);
    }
  }
  const store = openStore(":memory:", { tokenizer });
  const stale = new StaleTracker();
  const standIns = new SourceIndex();
  const asks: AskResult[][] = policies.map(() => []);
  const keys = new PolicyKeys();
  try {
    for (const event of buildTimeline(scenario, input.seed, input.variation)) {
      if (event.type === "remember") {
        store.rememberMany(event.memories);
        stale.record(event.memories);
        standIns.record(event.memories);
        continue;
      }
      const { ask, at } = event;
      const query = {
        text: ask.query,
        ...(ask.embedding ? { embedding: { model: SCENARIO_VECTOR_MODEL, vector: ask.embedding } } : {}),
      };
      const staleNow = stale.staleAt(at, ask.stale);
      // Rank metrics need each gold memory's rank however deep it places.
      const locate = ask.expect.flatMap((gold) => [gold, ...(input.matchSource ? standIns.memoriesFrom(gold) : [])]);
      const shared = policies.length > 1 ? askRelevance(store, scenario.scope, query, at, keys) : undefined;
      try {
        policies.forEach(({ policy }, i) => {
          const request = { scope: scenario.scope, query, now: at, policy, locate, neighbours: input.detail ? NEIGHBOURS : 0 };
          const block = retrieve(store, input.locateWithin === undefined ? request : { ...request, locateWithin: input.locateWithin }, shared);
          asks[i].push(scoreAsk(input, policy, block, ask, staleNow, standIns));
        });
      } finally {
        shared?.release();
      }
      const written = writeBack(store, { scope: scenario.scope, user: ask.query, now: at, id: writeBackId(ask.id) }, input.policy);
      if (written !== null) standIns.record([written]);
    }
  } finally {
    store.close();
  }
  // Results list asks in the scenario's order, whatever order this seed asked them in.
  const order = new Map(scenario.steps.flatMap((step) => (step.ask ? [step.ask.id] : [])).map((id, i) => [id, i]));
  return policies.map(({ name }, i) => {
    asks[i].sort((a, b) => (order.get(a.ask) ?? 0) - (order.get(b.ask) ?? 0));
    return { scenario: scenario.name, ablation: name, seed: input.seed, asks: asks[i] };
  });
}

/** Tracks which ids are out of date, from the timeline itself rather than from the store. */
class StaleTracker {
  private corrected = new Set<string>();
  private expiry = new Map<string, number>();
  record(memories: { id?: string; supersedes?: string | null; expiresAt?: number | null }[]): void {
    for (const m of memories) {
      if (m.supersedes) this.corrected.add(m.supersedes);
      if (m.id && m.expiresAt !== null && m.expiresAt !== undefined) this.expiry.set(m.id, m.expiresAt);
    }
  }
  staleAt(now: number, declared: string[]): Set<string> {
    const out = new Set([...declared, ...this.corrected]);
    for (const [id, at] of this.expiry) if (at <= now) out.add(id);
    return out;
  }
}

/** Which memories came from which source turns, for asks whose gold ids are turns (matchSource). */
class SourceIndex {
  private bySource = new Map<string, string[]>();
  private byMemory = new Map<string, string[]>();
  record(memories: { id?: string; source?: string | null }[]): void {
    for (const m of memories) {
      if (!m.id || !m.source) continue;
      const turns = m.source.split(",");
      this.byMemory.set(m.id, turns);
      for (const turn of turns) this.bySource.set(turn, [...(this.bySource.get(turn) ?? []), m.id]);
    }
  }
  memoriesFrom(turn: string): string[] {
    return this.bySource.get(turn) ?? [];
  }
  turnsOf(memory: string): string[] {
    return this.byMemory.get(memory) ?? [];
  }
}

/** The weights a section scored with: its own override, or the policy's. */
function sectionWeights(policy: RetrievalPolicy, section: string | undefined): [number, number, number] {
  const rule = section === "pooled" ? policy.pooled : section ? policy.sections[section as Kind] : undefined;
  return [...(rule?.score?.weights ?? policy.score.weights)] as [number, number, number];
}

function scoreAsk(
  input: TrialInput,
  policy: RetrievalPolicy,
  block: Block,
  ask: { id: string; expect: string[]; required?: string[] },
  stale: Set<string>,
  sources: SourceIndex,
): AskResult {
  const kept = block.sections.flatMap((s) => s.kept);
  // What a memory stands for: itself, and with matchSource the turns it came from.
  const standsFor = (id: string): string[] => (input.matchSource ? [id, ...sources.turnsOf(id)] : [id]);
  const reachedIds = new Set(kept.flatMap(standsFor));

  // One pass over every section's ranked memories (the gold ones are located), keeping each gold
  // id's best place.
  const best = new Map<string, { memory: RankedMemory; section: string }>();
  const wanted = new Set(ask.expect);
  for (const section of block.sections) {
    for (const memory of section.ranked) {
      for (const id of standsFor(memory.id)) {
        if (!wanted.has(id)) continue;
        const current = best.get(id);
        if (current === undefined || memory.rank < current.memory.rank) best.set(id, { memory, section: section.name });
      }
    }
  }
  const golds = ask.expect.map((gold) => {
    const found = best.get(gold);
    return { gold, best: found && { ...found.memory, section: found.section } };
  });
  const neighboursOf = (section: string, rank: number): NeighbourDetail[] =>
    block.sections
      .find((s) => s.name === section)!
      .ranked.filter((r) => r.rank !== rank && Math.abs(r.rank - rank) <= NEIGHBOURS)
      .map((r) => ({ id: r.id, rank: r.rank, rel: round(r.rel), rec: round(r.rec), imp: round(r.imp), total: round(r.total) }));
  const required = ask.required ?? ask.expect;
  const reached = required.filter((id) => reachedIds.has(id));

  const result: AskResult = {
    ask: ask.id,
    ranks: golds.map((g) => g.best?.rank ?? null),
    coverage: required.length === 0 ? null : round(reached.length / required.length),
    leaked: kept.filter((id) => stale.has(id)),
    tokens: block.sections.reduce((sum, s) => sum + s.tokensUsed, 0),
  };
  if (input.detail) {
    result.detail = {
      kept,
      sectionTokens: Object.fromEntries(block.sections.map((s) => [s.name, s.tokensUsed])),
      gold: golds.map(({ gold, best }): GoldDetail => {
        const weights = sectionWeights(policy, best?.section);
        return best
          ? {
              id: gold,
              section: best.section,
              rel: round(best.rel),
              rec: round(best.rec),
              imp: round(best.imp),
              total: round(best.total),
              weights,
              neighbours: neighboursOf(best.section, best.rank),
            }
          : { id: gold, section: null, rel: 0, rec: 0, imp: 0, total: 0, weights };
      }),
    };
  }
  return result;
}
