/**
 * The public retrieval entry: rank every section of the policy over the scope's index, fit each
 * under its rule, touch what was kept (after all scoring, in one transaction) and render the
 * block. Synchronous: query embeddings arrive precomputed.
 */
import { emptySection, renderBlock } from "./block.js";
import { buildSection } from "./build-section.js";
import {
  defaultStopwords,
  RELEVANCE_BACKENDS,
  type RelevanceScores,
} from "./relevance/index.js";
import { matchedByKind, SectionRanking } from "./rank/section-ranking.js";
import { KIND_CODE, type ScopeIndex } from "./store/index-columns.js";
import type { MemoryStore } from "./store/store.js";
import { type Block, KINDS, type RetrieveRequest, type ScoreConfig, type SectionName, type SectionRule } from "./types.js";

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
    return buildSection(index, name, rule, ranking, located, request.neighbours ?? 0);
  });

  for (const { scores } of relevanceCache.values()) index?.releaseScores(scores.values, scores.matched);

  if (policy.touch && index !== undefined) {
    store.touch(
      request.scope,
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
