/**
 * The public retrieval entry: rank every section of the policy over the scope's index, fit each
 * under its rule, touch what was kept (after all scoring, in one transaction) and render the
 * block. Synchronous: query embeddings arrive precomputed.
 */
import { emptySection, fitSection, renderBlock } from "./block.js";
import {
  defaultStopwords,
  RELEVANCE_BACKENDS,
  type RelevanceScores,
} from "./relevance/index.js";
import type { Candidates } from "./rank/candidates.js";
import { type Located, matchedByKind, SectionRanking } from "./rank/section-ranking.js";
import { KIND_CODE, type ScopeIndex } from "./store/index-columns.js";
import type { MemoryStore } from "./store/store.js";
import {
  type Block,
  KINDS,
  type RankedMemory,
  type RetrieveRequest,
  type ScoreConfig,
  type Section,
  type SectionName,
  type SectionRule,
} from "./types.js";

export function retrieve(store: MemoryStore, request: RetrieveRequest): Block {
  const { policy, query, now } = request;
  const plan: { name: SectionName; rule: SectionRule }[] =
    policy.mode === "pooled"
      ? [{ name: "pooled", rule: policy.pooled }]
      : KINDS.map((kind) => ({ name: kind, rule: policy.sections[kind] }));
  for (const { rule } of plan) {
    const backend = { ...policy.score, ...rule.score }.relevance;
    if (backend === "embedding" && query.embedding === undefined) {
      throw new Error("the embedding relevance backend needs query.embedding (a vector and its model)");
    }
  }

  const index = store.index(request.scope);
  const located = index === undefined ? [] : locatedSlots(index, request.locate ?? []);
  // Each backend scores once per retrieval, whatever the number of sections using it.
  const relevanceCache = new Map<string, QueryRelevance>();
  const relevanceFor = (index: ScopeIndex, config: ScoreConfig): QueryRelevance => {
    const stopwords = config.stopwords ?? defaultStopwords(config.relevance);
    const key = `${config.relevance}/${stopwords}`;
    let relevance = relevanceCache.get(key);
    if (relevance === undefined) {
      relevance = new QueryRelevance(index, RELEVANCE_BACKENDS[config.relevance]({ index, query, now, stopwords }));
      relevanceCache.set(key, relevance);
    }
    return relevance;
  };

  const built = plan.map(({ name, rule }) => {
    if (index === undefined) return { section: emptySection(name, rule.quota), lines: [] as string[] };
    const config: ScoreConfig = { ...policy.score, ...rule.score };
    const kind = name === "pooled" ? null : KIND_CODE[name];
    const relevance = relevanceFor(index, config);
    const ranking = new SectionRanking(index, kind, rule, config, relevance.scores, now, relevance.matched(kind));
    return buildSection(index, name, rule, ranking, located);
  });

  for (const { scores } of relevanceCache.values()) index?.releaseScores(scores.values, scores.matched);

  if (policy.touch && index !== undefined) {
    store.touch(
      built.flatMap((b) => b.section.kept),
      now,
    );
  }
  return {
    sections: built.map((b) => b.section),
    text: renderBlock(built.map((b) => ({ name: b.section.name, lines: b.lines }))),
  };
}

/** One backend's scores for the query, with its matched slots split by kind on first need. */
class QueryRelevance {
  private byKind: Int32Array[] | null = null;

  constructor(
    private readonly index: ScopeIndex,
    readonly scores: RelevanceScores,
  ) {}

  /** The matched slots a section of `kind` walks (all of them for a pooled section). */
  matched(kind: number | null): Int32Array | null {
    const all = this.scores.matched;
    if (kind === null || all === null) return all;
    this.byKind ??= matchedByKind(this.index, all);
    return this.byKind[kind];
  }
}

function locatedSlots(index: ScopeIndex, ids: readonly string[]): number[] {
  return ids.flatMap((id) => {
    const slot = index.slotOf(id);
    return slot === undefined ? [] : [slot];
  });
}

function buildSection(
  index: ScopeIndex,
  name: SectionName,
  rule: SectionRule,
  ranking: SectionRanking,
  located: readonly number[],
): { section: Section; lines: string[] } {
  // The head of the order, as deep as the item limit: fitting usually ends inside it.
  const depth = Math.max(rule.limit, 1);
  const head = ranking.top(depth);
  const fit = fitSection(head.slots.length, (p) => index.tokens[head.slots[p]], rule, ranking.minCost);
  const keptSlots = fit.kept.map((p) => head.slots[p]);
  let tokensUsed = fit.tokensUsed;
  // `skip` goes on past the head, among memories that fit the quota left: any better one either
  // was kept or did not fit a larger quota. Ordering only those is far cheaper than ordering
  // everything before them, and deepens the same way when too few of them fit.
  const beyond: number[] = [];
  const quota = rule.quota;
  if (!fit.complete && head.slots.length === depth && rule.fit === "skip" && quota !== null) {
    const keptSet = new Set(keptSlots);
    const left = quota - tokensUsed;
    const rest = { fit: rule.fit, limit: rule.limit - keptSlots.length, quota: left };
    let more = Math.max(rest.limit, 1);
    for (;;) {
      const fitting = ranking.top(more, (slot) => index.tokens[slot] <= left && !keptSet.has(slot));
      const fitRest = fitSection(fitting.slots.length, (p) => index.tokens[fitting.slots[p]], rest, ranking.minCost);
      if (fitRest.complete || fitting.slots.length < more) {
        for (const p of fitRest.kept) beyond.push(fitting.slots[p]);
        tokensUsed += fitRest.tokensUsed;
        break;
      }
      more *= 4;
    }
    keptSlots.push(...beyond);
  }

  const entry = (c: Candidates, i: number, rank: number): RankedMemory => {
    const slot = c.slots[i];
    return {
      id: index.ids[slot],
      kind: KINDS[index.kind[slot]],
      source: index.sources[slot],
      rank,
      tokens: index.tokens[slot],
      rel: c.rel[i],
      rec: c.rec[i],
      imp: c.imp[i],
      total: c.total[i],
    };
  };
  const ranked: RankedMemory[] = [];
  for (let i = 0; i < fit.examined; i++) ranked.push(entry(head, i, i + 1));
  // Memories kept past the head, and located ones that place deeper, join at their own ranks.
  const deeper = ranking
    .rankOf([...beyond, ...located])
    .filter((l: Located) => l.rank > fit.examined)
    .sort((a, b) => a.rank - b.rank);
  for (const l of deeper) ranked.push(entry(l.entry, 0, l.rank));

  const kept = keptSlots.map((slot) => index.ids[slot]);
  const keptIds = new Set(kept);
  return {
    section: {
      name,
      ranked,
      kept,
      dropped: ranked.filter((r) => !keptIds.has(r.id)).map((r) => r.id),
      tokensUsed,
      quota,
    },
    lines: keptSlots.map((slot) => index.line(slot)),
  };
}
