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
import { type Candidates, pickCandidates, precedence, scoreCandidates, topByPrecedence } from "./rank.js";
import { BoundedSection, canRankBounded } from "./rank-bounded.js";
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
  const relevanceCache = new Map<string, RelevanceScores>();
  const relevanceFor = (config: ScoreConfig): RelevanceScores => {
    const stopwords = config.stopwords ?? defaultStopwords(config.relevance);
    const key = `${config.relevance}/${stopwords}`;
    let scores = relevanceCache.get(key);
    if (scores === undefined && index !== undefined) {
      scores = RELEVANCE_BACKENDS[config.relevance]({ index, query, now, stopwords });
      relevanceCache.set(key, scores);
    }
    return scores as RelevanceScores;
  };

  const built = plan.map(({ name, rule }) => {
    if (index === undefined) return { section: emptySection(name, rule.quota), lines: [] as string[] };
    const config: ScoreConfig = { ...policy.score, ...rule.score };
    const kind = name === "pooled" ? null : KIND_CODE[name];
    const relevance = relevanceFor(config);
    // A prefix is enough when rankDepth is set: rank it in one bounded pass instead of scoring,
    // storing and ordering every candidate. Both give the same sections.
    const ranking: SectionRanking =
      request.rankDepth !== undefined && canRankBounded(config)
        ? new BoundedSection(index, kind, rule, config, relevance, now, initialDepth(rule, request.rankDepth))
        : fullRanking(index, scoreCandidates(index, kind, rule, config, relevance, now), rule.order);
    return buildSection(index, name, rule, ranking, request.rankDepth);
  });

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

/** A section's candidates, ordered on demand to any depth. */
interface SectionRanking {
  count: number;
  /** The cheapest candidate's token cost. */
  minCost: number;
  /** The first min(depth, count) candidates in section order. */
  top(depth: number): Candidates;
}

function fullRanking(index: ScopeIndex, candidates: Candidates, order: SectionRule["order"]): SectionRanking {
  const precedes = precedence(index, candidates, order);
  let minCost = Number.POSITIVE_INFINITY;
  for (const slot of candidates.slots) minCost = Math.min(minCost, index.tokens[slot]);
  const count = candidates.slots.length;
  return {
    count,
    minCost,
    top: (depth) => pickCandidates(candidates, topByPrecedence(count, depth, precedes)),
  };
}

/** How deep a section is ordered before fitting, when only a prefix is asked for. */
function initialDepth(rule: SectionRule, rankDepth: number): number {
  return Math.max(rankDepth, rule.limit, 1);
}

function buildSection(
  index: ScopeIndex,
  name: SectionName,
  rule: SectionRule,
  ranking: SectionRanking,
  rankDepth: number | undefined,
): { section: Section; lines: string[] } {
  const { count, minCost } = ranking;
  const tokensOf = (order: Candidates) => (p: number) => index.tokens[order.slots[p]];
  // Order only as deep as fitting needs; deepen when `skip` walks past the prefix.
  let depth = rankDepth === undefined ? count : initialDepth(rule, rankDepth);
  let order = ranking.top(depth);
  let fit = fitSection(order.slots.length, tokensOf(order), rule, minCost);
  while (!fit.complete && order.slots.length < count) {
    depth *= 4;
    order = ranking.top(depth);
    fit = fitSection(order.slots.length, tokensOf(order), rule, minCost);
  }
  const reported = rankDepth === undefined ? count : Math.max(rankDepth, fit.examined);
  const ranked: RankedMemory[] = [];
  for (let i = 0; i < Math.min(reported, order.slots.length); i++) {
    const slot = order.slots[i];
    ranked.push({
      id: index.ids[slot],
      kind: KINDS[index.kind[slot]],
      source: index.sources[slot],
      rank: i + 1,
      tokens: index.tokens[slot],
      rel: order.rel[i],
      rec: order.rec[i],
      imp: order.imp[i],
      total: order.total[i],
    });
  }
  const keptPositions = new Set(fit.kept);
  const kept = fit.kept.map((p) => ranked[p].id);
  const dropped = ranked.filter((_, p) => !keptPositions.has(p)).map((r) => r.id);
  const lines = fit.kept.map((p) => index.line(order.slots[p]));
  return {
    section: { name, ranked, kept, dropped, tokensUsed: fit.tokensUsed, quota: rule.quota },
    lines,
  };
}
