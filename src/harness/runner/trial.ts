import { openStore, retrieve, writeBack } from "../../memory/index.js";
import type { TokenCounter } from "../../memory/tokenizer.js";
import type { Block, Kind, RankedMemory, RetrievalPolicy } from "../../memory/types.js";
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
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Plays one timeline through the real memory system, on the calls a library user makes: open a
 * store, remember, retrieve, write back. Each trial gets a fresh in-memory store.
 */
export function runTrial(input: TrialInput, tokenizer: TokenCounter): Trial {
  const { scenario, policy } = input;
  const store = openStore(":memory:", { tokenizer });
  const stale = new StaleTracker();
  const asks: AskResult[] = [];
  try {
    for (const event of buildTimeline(scenario, input.seed, input.variation)) {
      if (event.type === "remember") {
        store.rememberMany(event.memories);
        stale.record(event.memories);
        continue;
      }
      const { ask, at } = event;
      const block = retrieve(store, {
        scope: scenario.scope,
        query: {
          text: ask.query,
          ...(ask.embedding ? { embedding: { model: SCENARIO_VECTOR_MODEL, vector: ask.embedding } } : {}),
        },
        now: at,
        policy,
      });
      asks.push(scoreAsk(input, block, ask, stale.staleAt(at, ask.stale)));
      writeBack(store, { scope: scenario.scope, user: ask.query, now: at, id: writeBackId(ask.id) }, policy);
    }
  } finally {
    store.close();
  }
  // Results list asks in the scenario's order, whatever order this seed asked them in.
  const order = new Map(scenario.steps.flatMap((step) => (step.ask ? [step.ask.id] : [])).map((id, i) => [id, i]));
  asks.sort((a, b) => (order.get(a.ask) ?? 0) - (order.get(b.ask) ?? 0));
  return { scenario: scenario.name, ablation: input.ablation, seed: input.seed, asks };
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

/** The weights a section scored with: its own override, or the policy's. */
function sectionWeights(policy: RetrievalPolicy, section: string | undefined): [number, number, number] {
  const rule = section === "pooled" ? policy.pooled : section ? policy.sections[section as Kind] : undefined;
  return [...(rule?.score?.weights ?? policy.score.weights)] as [number, number, number];
}

function scoreAsk(
  input: TrialInput,
  block: Block,
  ask: { id: string; expect: string[]; required?: string[] },
  stale: Set<string>,
): AskResult {
  const kept = block.sections.flatMap((s) => s.kept);
  const keptSet = new Set(kept);
  // What each ranked memory stands for: itself, and with matchSource the turns it came from.
  const standsFor = (r: RankedMemory): string[] =>
    input.matchSource && r.source ? [r.id, ...r.source.split(",")] : [r.id];

  // One pass over every section's ordering, keeping each gold id's best place.
  const best = new Map<string, { memory: RankedMemory; section: string }>();
  const wanted = new Set(ask.expect);
  const reachedIds = new Set<string>();
  for (const section of block.sections) {
    for (const memory of section.ranked) {
      for (const id of standsFor(memory)) {
        if (keptSet.has(memory.id)) reachedIds.add(id);
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
  const neighboursOf = (section: string, rank: number): NeighbourDetail[] => {
    // `ranked` is in rank order, rank i + 1 at index i.
    const ranked = block.sections.find((s) => s.name === section)!.ranked;
    return ranked
      .slice(Math.max(0, rank - 1 - NEIGHBOURS), rank + NEIGHBOURS)
      .filter((r) => r.rank !== rank)
      .map((r) => ({ id: r.id, rank: r.rank, rel: round(r.rel), rec: round(r.rec), imp: round(r.imp), total: round(r.total) }));
  };
  const required = ask.required ?? ask.expect;
  const reached = required.filter((id) => keptSet.has(id) || reachedIds.has(id));

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
        const weights = sectionWeights(input.policy, best?.section);
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
