/**
 * Memory written with the model in the loop, as Generative Agents writes it: every new memory's
 * importance is rated by the model at write time (the poignancy prompt), and once the rated
 * importance of new memories adds up to a threshold, reflection asks its questions over the
 * scope's most recent memories, retrieves evidence with the same policy, and stores insights as
 * semantic memories, rated too. The answer-level evaluation and `npm run chat` both write through
 * this one class.
 */
import { retrieve } from "../memory/index.js";
import type { MemoryStore } from "../memory/index.js";
import type { Memory, NewMemory, RetrievalPolicy } from "../memory/index.js";
import { chatTurn, type ChatLoopDeps, type TurnResult } from "./chat-loop.js";
import { DEFAULT_IMPORTANCE_FALLBACK, rateImportance, type ImportanceRating } from "./importance.js";
import { importanceSince, INSIGHT_SOURCE, type Insight, reflect, reflectionDue } from "./reflection.js";
import type { ModelClient, SamplingOptions } from "../model/types.js";

/** Generative Agents reflects over the latest 100 memories. */
const REFLECTION_RECENT = 100;

export interface RatedMemoryOptions {
  client: ModelClient;
  store: MemoryStore;
  scope: string;
  policy: RetrievalPolicy;
  model: string;
  options?: SamplingOptions;
  /** Used when a rating reply holds no number. */
  importanceFallback?: number;
  /** Reflect once this much new importance has accumulated; never when undefined. */
  reflectionThreshold?: number;
}

/** The parts of a chat turn that are not the memory's own: the embedder, the request counter, the prompt. */
export type TurnExtras = Pick<ChatLoopDeps, "embedder" | "countRequest" | "systemPrompt" | "think">;

export class RatedMemory {
  /** Every rating asked for, and those whose reply held no number. */
  readonly importance = { rated: 0, fallbacks: 0 };
  readonly insights: Insight[] = [];
  reflections = 0;
  /** Importance written since the last reflection; a reopened store starts from what it still owes. */
  private accumulated: number;

  constructor(private readonly settings: RatedMemoryOptions) {
    this.accumulated = pendingImportance(settings.store, settings.scope);
  }

  /** Rates one text through the model, counting the rating and any fallback. */
  readonly rate = async (text: string): Promise<ImportanceRating> => {
    const { client, model, options, importanceFallback } = this.settings;
    const rating = await rateImportance(client, text, {
      model,
      ...(options ? { options } : {}),
      fallback: importanceFallback ?? DEFAULT_IMPORTANCE_FALLBACK,
    });
    this.importance.rated++;
    if (rating.fallback) this.importance.fallbacks++;
    return rating;
  };

  /** Rates each memory (the rating replaces any importance given), stores them together, then reflects if due. */
  async remember(memories: readonly NewMemory[], now: number): Promise<Memory[]> {
    const rated: NewMemory[] = [];
    for (const memory of memories) rated.push({ ...memory, importance: (await this.rate(memory.text)).importance });
    const stored = this.settings.store.rememberMany(rated);
    await this.added(stored.map((m) => m.importance), now);
    return stored;
  }

  /** One chat turn at `now`, its write-back rated, then reflection if due. */
  async turn(turn: { user: string; id?: string }, now: number, extras: TurnExtras = {}): Promise<TurnResult> {
    const { client, store, policy, model, options, scope } = this.settings;
    const result = await chatTurn(
      { ...extras, client, store, policy, clock: () => now, model, ...(options ? { options } : {}), rate: this.rate },
      { scope, user: turn.user, ...(turn.id === undefined ? {} : { id: turn.id }) },
    );
    if (result.importance) await this.added([result.importance.importance], now);
    return result;
  }

  private async added(importances: readonly number[], now: number): Promise<void> {
    const { reflectionThreshold: threshold, client, store, scope, policy, model, options } = this.settings;
    if (threshold === undefined) return;
    this.accumulated += importances.reduce((a, b) => a + b, 0);
    if (!reflectionDue(this.accumulated, threshold)) return;
    this.accumulated = 0;
    this.reflections++;
    const recent = store
      .current(scope, now)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
      .slice(0, REFLECTION_RECENT)
      .map((m) => ({ id: m.id, text: m.text }));
    const result = await reflect(
      {
        client,
        retrieve: (question) =>
          retrieve(store, { scope, query: { text: question }, now, policy })
            .sections.flatMap((s) => s.kept)
            .map((id) => ({ id, text: store.get(scope, id)!.text })),
        remember: (memory) => store.remember(memory),
        rate: async (text) => (await this.rate(text)).importance,
      },
      { scope, now, recent, model, ...(options ? { options } : {}) },
    );
    this.insights.push(...result.insights);
  }
}

/**
 * Importance of the scope's current memories written after its newest insight: what a store
 * reopened by a later chat still owes reflection. A new store owes nothing.
 */
function pendingImportance(store: MemoryStore, scope: string): number {
  // A time before every memory, so that none counts as expired.
  const memories = store.current(scope, Number.MIN_SAFE_INTEGER);
  const lastInsight = memories.reduce((latest, m) => (m.source?.startsWith(INSIGHT_SOURCE) ? Math.max(latest, m.createdAt) : latest), -Infinity);
  return importanceSince(memories, lastInsight);
}
