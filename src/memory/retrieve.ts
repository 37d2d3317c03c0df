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
import { type Candidates, precedence, scoreCandidates, topByPrecedence } from "./rank.js";
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
    const candidates = scoreCandidates(index, kind, rule, config, relevanceFor(config), now);
    return buildSection(index, name, rule, candidates, request.rankDepth);
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

function buildSection(
  index: ScopeIndex,
  name: SectionName,
  rule: SectionRule,
  candidates: Candidates,
  rankDepth: number | undefined,
): { section: Section; lines: string[] } {
  const count = candidates.slots.length;
  const precedes = precedence(index, candidates, rule.order);
  const tokensOf = (order: number[]) => (p: number) => index.tokens[candidates.slots[order[p]]];
  let minCost = Number.POSITIVE_INFINITY;
  for (const slot of candidates.slots) minCost = Math.min(minCost, index.tokens[slot]);
  // Order only as deep as fitting needs; deepen when `skip` walks past the prefix.
  let depth = rankDepth === undefined ? count : Math.max(rankDepth, rule.limit, 1);
  let order = topByPrecedence(count, depth, precedes);
  let fit = fitSection(order.length, tokensOf(order), rule, minCost);
  while (!fit.complete && order.length < count) {
    depth *= 4;
    order = topByPrecedence(count, depth, precedes);
    fit = fitSection(order.length, tokensOf(order), rule, minCost);
  }
  const reported = rankDepth === undefined ? count : Math.max(rankDepth, fit.examined);
  const ranked: RankedMemory[] = order.slice(0, reported).map((c, i) => {
    const slot = candidates.slots[c];
    return {
      id: index.ids[slot],
      kind: KINDS[index.kind[slot]],
      source: index.sources[slot],
      rank: i + 1,
      tokens: index.tokens[slot],
      rel: candidates.rel[c],
      rec: candidates.rec[c],
      imp: candidates.imp[c],
      total: candidates.total[c],
    };
  });
  const keptPositions = new Set(fit.kept);
  const kept = fit.kept.map((p) => ranked[p].id);
  const dropped = ranked.filter((_, p) => !keptPositions.has(p)).map((r) => r.id);
  const lines = fit.kept.map((p) => index.line(candidates.slots[order[p]]));
  return {
    section: { name, ranked, kept, dropped, tokensUsed: fit.tokensUsed, quota: rule.quota },
    lines,
  };
}
