import { renderLine, turnText, type NewMemory, type TokenCounter } from "../../memory/index.js";
import type { Variation } from "../scenario/variation.js";
import { type AskResult, type GoldDetail, NEIGHBOURS, type NeighbourDetail, type Trial } from "../results/types.js";
import type { ScenarioSpec } from "../scenario/schema.js";
import { buildTimeline } from "../scenario/timeline.js";
import { DISTRACTOR_PREFIX, writeBackId } from "../scenario/validate.js";
import { IdLedger, withinTimeout } from "../systems/checked.js";
import { type MemorySystem, type RankedEntry, type RankedSection, type Retrieved, SystemError, type SystemMemory, type SystemQuery } from "../systems/contract.js";
import type { SystemHost } from "../systems/host.js";
import { type NamedPolicy, RecollectScope } from "../systems/recollect.js";
import { callTimeout, type SystemRef } from "../systems/spec.js";
import type { VectorTables } from "./pack.js";
import { ScenarioVectors } from "./scenario-vectors.js";
import { hasLiteralVectors } from "../scenario/validate.js";
import { userError } from "../../shared/errors.js";

/** Everything one (scenario, ablation or system, seed) needs; plain data, so it can cross to a worker. */
export interface TrialInput {
  scenario: ScenarioSpec;
  /** The ablation's or system's name, as results name the trial. */
  ablation: string;
  system: SystemRef;
  /** Write each question back to the system as an episodic memory. */
  writeBack: boolean;
  /** The token budget each retrieval is told (recollect policies keep their own quotas). */
  budget: number | null;
  /** The embedding model recollect ranks by, when its policy ranks by embedding. */
  embeddingModel?: string;
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
  /** When the system fails, record the trial as skipped (its asks as empty retrievals) instead of stopping the run. */
  skipOnSystemError?: boolean;
}

/** What a thread lends its trials: line prices, vectors, its systems, and a counter for returned blocks. */
export interface TrialContext {
  /** The scenario's memory lines, each priced once before the run. */
  tokens: TokenCounter;
  /** The scenario's texts embedded before the run, per model. */
  vectors?: VectorTables;
  host: SystemHost;
  /** Counts the text a system returns as its block; without it, blocks are priced by their memories' lines. */
  blockTokens?: () => Promise<TokenCounter>;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Plays one timeline through one system, on the contract's calls: open a fresh scope, write the
 * memories as they happen, retrieve at each question (and write it back when the trial does), close.
 */
export async function runTrial(input: TrialInput, context: TrialContext): Promise<Trial> {
  const vectors = vectorsFor(input, context);
  let system: MemorySystem | undefined;
  let call: CallCounter | undefined;
  try {
    system = await withinTimeout("start", callTimeout(input.system), false, () =>
      context.host.system(input.system, { tokenizer: context.tokens, embeddings: vectors }),
    );
    const opened = system;
    const calls = new CallCounter(callTimeout(input.system), input.system.type === "module");
    call = calls;
    const scope = await calls.run("open", () => opened.open(input.scenario.scope));
    const latency = { write: [] as number[], retrieve: [] as number[] };
    try {
      const [trial] = await play(input, context, vectors, {
        write: async (memories) => latency.write.push(await calls.timed("write", () => scope.write(memories))),
        retrieve: async (query) => {
          let reply: Retrieved | undefined;
          latency.retrieve.push(await calls.timed("retrieve", async () => void (reply = await scope.retrieve(opened.locates ? query : withoutLocate(query)))));
          return [reply as Retrieved];
        },
        onAsk: (ask) => (calls.ask = ask),
        names: [{ name: input.ablation, weights: defaultWeights(input.system) }],
        sections: opened.locates === true,
      });
      await calls.run("close", () => scope.close());
      return { ...trial, latency };
    } catch (error) {
      // Cleaning up after a failure is bounded like any call, and cannot replace the failure.
      await calls.run("close", async () => scope.close()).catch(() => {});
      throw error;
    }
  } catch (error) {
    if (!(error instanceof SystemError)) throw error;
    const where = `trial ${input.scenario.name} / seed ${input.seed} at ${call?.describe(error.call) ?? error.call}`;
    const message = `system "${input.ablation}" failed in ${where}: ${error.problem}`;
    if (!input.skipOnSystemError) throw userError(message, { cause: error });
    return skippedTrial(input, { call: error.call, message });
  }
}

/**
 * Plays one timeline once through recollect under `input`'s policy, and ranks each question under
 * every one of `policies` over the same store state, its relevance scored once and shared: one
 * trial per policy, each exactly what runTrial gives for that policy alone. This holds only when no
 * policy touches and all write back as `input` does (later questions would otherwise depend on
 * earlier retrievals), so anything else is refused. A sweep ranks its points this way.
 */
export async function runTrialUnder(input: TrialInput, policies: readonly NamedPolicy[], context: TrialContext): Promise<Trial[]> {
  if (input.system.type !== "recollect") throw new Error("only recollect's own policies can share a timeline");
  const diverging = policies.find((p) => p.policy.touch || p.policy.writeBack !== input.writeBack);
  if (diverging !== undefined) {
    throw new Error(`policy "${diverging.name}" touches or writes back differently: its timeline cannot be shared with others`);
  }
  const vectors = vectorsFor(input, context);
  const scope = new RecollectScope(input.scenario.scope, { policy: input.system.policy, tokenizer: context.tokens, embeddings: vectors, stores: context.host.stores });
  try {
    return await play(input, { tokens: context.tokens, host: context.host }, vectors, {
      write: (memories) => scope.write(memories),
      retrieve: async (query) => scope.retrieveUnder(query, policies),
      names: policies.map((p) => ({ name: p.name, weights: [...p.policy.score.weights] as [number, number, number] })),
      sections: true,
    });
  } finally {
    await scope.close();
  }
}

interface Player {
  write(memories: readonly SystemMemory[]): Promise<unknown>;
  /** One reply per name, in order. */
  retrieve(query: SystemQuery): Promise<Retrieved[]>;
  onAsk?: (ask: string) => void;
  /** The trials to make, with the weights a gold memory that was not ranked is reported under. */
  names: { name: string; weights?: [number, number, number] }[];
  /** Whether to ask for the rank of the gold memories however deep (the system reports sections). */
  sections: boolean;
}

async function play(input: TrialInput, context: TrialContext, vectors: ScenarioVectors, player: Player): Promise<Trial[]> {
  const { scenario } = input;
  const stale = new StaleTracker();
  const standIns = new SourceIndex();
  const ledger = new IdLedger();
  const known = knownImportance(scenario, input.variation);
  const blockTokens = context.blockTokens === undefined ? undefined : await context.blockTokens();
  const asks: AskResult[][] = player.names.map(() => []);
  const write = async (memories: SystemMemory[]) => {
    ledger.add(memories);
    await player.write(memories);
  };
  for (const event of buildTimeline(scenario, input.seed, input.variation)) {
    if (event.type === "remember") {
      vectors.recordMemories(event.memories);
      stale.record(event.memories);
      standIns.record(event.memories);
      await write(event.memories.map((m) => systemMemory(m, known, context.tokens)));
      continue;
    }
    const { ask, at } = event;
    player.onAsk?.(ask.id);
    vectors.recordQuery(ask.query, ask.embedding);
    const staleNow = stale.staleAt(at, ask.stale);
    // Rank metrics need each gold memory's rank however deep it places.
    const locate = ask.expect.flatMap((gold) => [gold, ...(input.matchSource ? standIns.memoriesFrom(gold) : [])]);
    const query: SystemQuery = { query: ask.query, now: at, budget: input.budget };
    if (player.sections) {
      query.locate = { ids: locate, neighbours: input.detail ? NEIGHBOURS : 0, ...(input.locateWithin === undefined ? {} : { within: input.locateWithin }) };
    }
    const replies = (await player.retrieve(query)).map((reply) => ledger.check(reply));
    replies.forEach((reply, i) => {
      const scored = scoreAsk(input, reply, ask, staleNow, standIns, ledger, player.names[i].weights);
      if (blockTokens !== undefined) scored.returnedTokens = reply.block === undefined ? scored.tokens : blockTokens.count(reply.block);
      asks[i].push(scored);
    });
    if (input.writeBack) {
      const turn = writeBackMemory(writeBackId(ask.id), ask.query, at, context.tokens);
      standIns.record([turn]);
      await write([turn]);
    }
  }
  return player.names.map(({ name }, i) => ({ scenario: scenario.name, ablation: name, seed: input.seed, asks: inScenarioOrder(scenario, asks[i]) }));
}

/** Results list asks in the scenario's order, whatever order this seed asked them in. */
function inScenarioOrder(scenario: ScenarioSpec, asks: AskResult[]): AskResult[] {
  const order = new Map(askIds(scenario).map((id, i) => [id, i]));
  return asks.sort((a, b) => (order.get(a.ask) ?? 0) - (order.get(b.ask) ?? 0));
}

const askIds = (scenario: ScenarioSpec) => scenario.steps.flatMap((step) => (step.ask ? [step.ask.id] : []));

/** A trial whose system failed: every ask scored as a retrieval that returned nothing, and why. */
function skippedTrial(input: TrialInput, skipped: NonNullable<Trial["skipped"]>): Trial {
  const empty: Retrieved = { ids: [] };
  const weights = defaultWeights(input.system);
  const asks = input.scenario.steps.flatMap((step) => {
    if (!step.ask) return [];
    const scored = scoreAsk(input, empty, step.ask, new Set(), new SourceIndex(), new IdLedger(), weights);
    return [{ ...scored, returnedTokens: 0 }];
  });
  return { scenario: input.scenario.name, ablation: input.ablation, seed: input.seed, asks, skipped };
}

/** Counts a trial's calls and times them, so an error can say which call of which question failed. */
class CallCounter {
  ask: string | undefined;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly timeoutMs: number | undefined,
    /** Whether the system's own code runs in this thread, so that anything it throws is its failure. */
    private readonly foreign: boolean,
  ) {}

  run<T>(call: "open" | "write" | "retrieve" | "close", work: () => Promise<T>): Promise<T> {
    this.counts.set(call, (this.counts.get(call) ?? 0) + 1);
    return withinTimeout(call, this.timeoutMs, this.foreign, work);
  }

  /** Runs the call and gives its wall time in milliseconds. */
  async timed(call: "write" | "retrieve", work: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    await this.run(call, work);
    return Math.round((performance.now() - started) * 1000) / 1000;
  }

  describe(call: string): string {
    const n = this.counts.get(call);
    const ask = this.ask !== undefined && (call === "retrieve" || call === "write") ? ` (at ask ${this.ask})` : "";
    return n === undefined ? call : `${call} call ${n}${ask}`;
  }
}

/** The trial's embedding source: the scenario's own vectors, or its model's (see ScenarioVectors). */
function vectorsFor(input: TrialInput, context: TrialContext): ScenarioVectors {
  const model = input.embeddingModel;
  if (model === undefined) return new ScenarioVectors(true);
  const table = context.vectors?.get(model);
  if (table === undefined && !hasLiteralVectors(input.scenario)) throw new Error(`no ${model} vectors were packed for scenario ${input.scenario.name}`);
  return new ScenarioVectors(hasLiteralVectors(input.scenario), table === undefined ? undefined : { id: model, table });
}

function withoutLocate(query: SystemQuery): SystemQuery {
  const { locate: _, ...rest } = query;
  return rest;
}

/** The weights recollect reports a gold memory it did not rank under: the policy's own. */
function defaultWeights(system: SystemRef): [number, number, number] | undefined {
  return system.type === "recollect" ? ([...system.policy.score.weights] as [number, number, number]) : undefined;
}

/**
 * Which memories a system is told the importance of: those rated in their scenario, or every one
 * when the experiment puts seed noise on unrated memories too (the value is then the experiment's).
 */
function knownImportance(scenario: ScenarioSpec, variation: Variation): (id: string) => boolean {
  if (variation.unratedImportanceNoise > 0) return () => true;
  const unrated = new Set<string>();
  for (const step of scenario.steps) for (const m of step.remember ?? []) if (m.importance === undefined) unrated.add(m.id);
  scenario.pool.forEach((m, i) => {
    if (m.importance === undefined) unrated.add(`${DISTRACTOR_PREFIX}${i}`);
  });
  return (id) => !unrated.has(id);
}

function systemMemory(m: NewMemory, known: (id: string) => boolean, tokens: TokenCounter): SystemMemory {
  const id = m.id as string;
  const memory: SystemMemory = {
    id,
    kind: m.kind,
    text: m.text,
    createdAt: m.createdAt,
    occurredAt: m.occurredAt ?? null,
    supersedes: m.supersedes ?? null,
    expiresAt: m.expiresAt ?? null,
    source: m.source ?? null,
    tokens: tokens.count(renderLine(m.text)),
  };
  if (m.lastAccessedAt !== undefined && m.lastAccessedAt !== m.createdAt) memory.lastAccessedAt = m.lastAccessedAt;
  if (m.importance !== undefined && known(id)) memory.importance = m.importance;
  return memory;
}

/** A question written back: the turn as an episodic memory of that moment. */
function writeBackMemory(id: string, question: string, at: number, tokens: TokenCounter): SystemMemory {
  const text = turnText({ user: question });
  return { id, kind: "episodic", text, createdAt: at, occurredAt: at, supersedes: null, expiresAt: null, source: "write-back", tokens: tokens.count(renderLine(text)) };
}

/** Tracks which ids are out of date, from the timeline itself rather than from the system. */
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

/** What a memory stands for: itself, and with matchSource the turns it came from. */
function standsFor(id: string, matchSource: boolean, sources: SourceIndex): string[] {
  return matchSource ? [id, ...sources.turnsOf(id)] : [id];
}

/** The name of the one ranking of a system that reports no sections: its returned ids in order. */
export const RANKING_SECTION = "ranking";

function scoreAsk(
  input: TrialInput,
  reply: Retrieved,
  ask: { id: string; expect: string[]; required?: string[] },
  stale: Set<string>,
  sources: SourceIndex,
  ledger: IdLedger,
  weights: [number, number, number] | undefined,
): AskResult {
  const kept = reply.ids;
  const sections: RankedSection[] = reply.sections ?? [{ name: RANKING_SECTION, ranked: kept.map((id, i) => ({ id, rank: i + 1 })), kept }];
  const reachedIds = new Set(kept.flatMap((id) => standsFor(id, input.matchSource, sources)));

  // One pass over every section's ranked memories (the gold ones are located), keeping each gold
  // id's best place.
  const best = new Map<string, { entry: RankedEntry; section: RankedSection }>();
  const wanted = new Set(ask.expect);
  for (const section of sections) {
    for (const entry of section.ranked) {
      for (const id of standsFor(entry.id, input.matchSource, sources)) {
        if (!wanted.has(id)) continue;
        const current = best.get(id);
        if (current === undefined || entry.rank < current.entry.rank) best.set(id, { entry, section });
      }
    }
  }
  const required = ask.required ?? ask.expect;
  const reached = required.filter((id) => reachedIds.has(id));
  const tokens = kept.reduce((sum, id) => sum + ledger.cost(id), 0);

  const result: AskResult = {
    ask: ask.id,
    ranks: ask.expect.map((gold) => best.get(gold)?.entry.rank ?? null),
    coverage: required.length === 0 ? null : round(reached.length / required.length),
    leaked: kept.filter((id) => stale.has(id)),
    tokens,
  };
  if (input.detail) {
    result.detail = {
      kept,
      sectionTokens: Object.fromEntries(sections.map((s) => [s.name, s.kept.reduce((sum, id) => sum + ledger.cost(id), 0)])),
      gold: ask.expect.map((gold) => goldDetail(gold, best.get(gold), weights)),
    };
  }
  return result;
}

function goldDetail(gold: string, found: { entry: RankedEntry; section: RankedSection } | undefined, weights: [number, number, number] | undefined): GoldDetail {
  if (found === undefined) return { id: gold, section: null, ...(weights === undefined ? {} : { rel: 0, rec: 0, imp: 0, total: 0, weights }) };
  const { entry, section } = found;
  const detail: GoldDetail = { id: gold, section: section.name };
  if (!hasSignals(entry) || section.weights === undefined) return detail;
  const neighbours: NeighbourDetail[] = section.ranked.flatMap((r) =>
    r.rank !== entry.rank && Math.abs(r.rank - entry.rank) <= NEIGHBOURS && hasSignals(r) ? [{ id: r.id, rank: r.rank, ...signals(r) }] : [],
  );
  return { ...detail, ...signals(entry), weights: section.weights, neighbours };
}

type Signalled = RankedEntry & Required<Pick<RankedEntry, "rel" | "rec" | "imp" | "total">>;
const hasSignals = (e: RankedEntry): e is Signalled => e.rel !== undefined && e.rec !== undefined && e.imp !== undefined && e.total !== undefined;
const signals = (e: Signalled) => ({ rel: round(e.rel), rec: round(e.rec), imp: round(e.imp), total: round(e.total) });
