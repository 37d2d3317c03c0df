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
import { type Located, SectionRanking } from "./rank/section-ranking.js";
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
    const ranking = new SectionRanking(index, kind, rule, config, relevanceFor(config), now);
    return buildSection(index, name, rule, ranking, located);
  });

  if (index !== undefined) for (const scores of relevanceCache.values()) index.releaseScores(scores.values, scores.matched);

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
  const tokensOf = (order: Candidates) => (p: number) => index.tokens[order.slots[p]];
  // Order only as deep as fitting needs; deepen when `skip` walks past the prefix. A prefix
  // shorter than asked for holds every candidate.
  let depth = Math.max(rule.limit, 1);
  let order = ranking.top(depth);
  let fit = fitSection(order.slots.length, tokensOf(order), rule, ranking.minCost);
  while (!fit.complete && order.slots.length === depth) {
    depth *= 4;
    order = ranking.top(depth);
    fit = fitSection(order.slots.length, tokensOf(order), rule, ranking.minCost);
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
  for (let i = 0; i < fit.examined; i++) ranked.push(entry(order, i, i + 1));
  // Located memories beyond what fitting examined join the report at their own ranks.
  const deeper = ranking
    .rankOf(located)
    .filter((l: Located) => l.rank > fit.examined)
    .sort((a, b) => a.rank - b.rank);
  for (const l of deeper) ranked.push(entry(l.entry, 0, l.rank));

  const keptPositions = new Set(fit.kept);
  const kept = fit.kept.map((p) => ranked[p].id);
  const dropped = ranked.filter((_, p) => !keptPositions.has(p)).map((r) => r.id);
  const lines = fit.kept.map((p) => index.line(order.slots[p]));
  return {
    section: { name, ranked, kept, dropped, tokensUsed: fit.tokensUsed, quota: rule.quota },
    lines,
  };
}
