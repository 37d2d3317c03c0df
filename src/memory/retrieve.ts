/**
 * The public retrieval entry: rank every section of the policy over the scope's index, fit each
 * under its rule, touch what was kept (after all scoring, in one transaction) and render the
 * block. Synchronous: query embeddings arrive precomputed.
 *
 * `shared` is the ask's relevance when the caller ranks one ask under several policies over an
 * unchanged store (see askRelevance); without it, each call scores the query itself.
 */
import { byCodeUnit } from "../shared/order.js";
import { emptySection, renderBlock } from "./block.js";
import { buildSection } from "./build-section.js";
import { AskRelevance, type PolicyKeys } from "./ask-relevance.js";
import { defaultStopwords, needsEmbedding } from "./relevance/index.js";
import { HYBRID_DEFAULTS } from "./relevance/hybrid.js";
import { SectionRanking } from "./rank/section-ranking.js";
import { KIND_CODE, type ScopeIndex } from "./store/index-columns.js";
import { type MemoryStore, scopeIndex } from "./store/store.js";
import { type Block, KINDS, type Query, type RetrieveRequest, type ScoreConfig, type SectionName, type SectionRule } from "./types.js";

export function retrieve(store: MemoryStore, request: RetrieveRequest, shared?: AskRelevance): Block {
  const { policy, query, now } = request;
  const plan: { name: SectionName; rule: SectionRule }[] =
    policy.mode === "pooled"
      ? [{ name: "pooled", rule: policy.pooled }]
      : KINDS.map((kind) => ({ name: kind, rule: policy.sections[kind] }));
  for (const { rule } of plan) {
    const backend = { ...policy.score, ...rule.score }.relevance;
    if (needsEmbedding(backend) && query.embedding === undefined) {
      throw new Error(`the ${backend} relevance backend needs query.embedding (a vector and its model)`);
    }
  }

  const index = scopeIndex(store, request.scope);
  // A scope that holds nothing has nothing to rank, locate or touch.
  if (index === undefined) return { sections: plan.map(({ name, rule }) => emptySection(name, rule.quota)), text: "" };
  const located = locatedSlots(index, request.locate);
  if (shared !== undefined && !shared.serves(index, query, now)) {
    throw new Error("retrieve was passed the relevance of another scope, query or moment");
  }
  // Each backend scores once per retrieval, whatever the number of sections using it, or once
  // per ask when the caller shares the scores across retrievals.
  const relevance = shared ?? new AskRelevance(index, query, now);

  const neighbours = request.neighbours ?? 0;
  const within = request.locateWithin ?? Number.POSITIVE_INFINITY;
  // What every section's result depends on besides its settings (see sectionKey).
  const besides = shared === undefined ? "" : JSON.stringify([located, neighbours, within]);
  const built = plan.map(({ name, rule }) => {
    const config: ScoreConfig = { ...policy.score, ...rule.score };
    const build = () => {
      const kind = name === "pooled" ? null : KIND_CODE[name];
      const scored = relevance.for(config);
      // Recency, and matched slots in relevance order, are worth keeping only when other policies
      // will rank this ask too.
      const ranking = new SectionRanking(index, kind, rule, config, scored.scores, now, {
        matched: shared === undefined ? scored.matched(kind) : scored.matchedByRelevance(kind),
        matchedByRelevance: shared !== undefined,
        recency: shared?.recency,
      });
      return buildSection(index, name, rule, ranking, located, neighbours, within);
    };
    if (shared === undefined) return build();
    // Policies that agree on everything this section reads share its result.
    return shared.section(shared.keys.of(policy, name, () => sectionKey(name, rule, config)) + besides, build);
  });

  if (shared === undefined) relevance.release();

  if (policy.touch) {
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

/**
 * The relevance of `query` to `scope`'s memories at `now`, to pass to every retrieve of that one
 * ask (see AskRelevance); undefined when the scope holds nothing. The caller releases it before
 * the store changes, and no policy it serves may touch.
 */
export function askRelevance(store: MemoryStore, scope: string, query: Query, now: number, keys?: PolicyKeys): AskRelevance | undefined {
  const index = scopeIndex(store, scope);
  return index === undefined ? undefined : new AskRelevance(index, query, now, keys);
}

/**
 * The settings a section's result depends on, for one ask over one store state (the request's
 * located memories aside): its rule and, when ordered by score, the effective score settings. The
 * unit of decay matters only where some decay rate the section uses is below 1 (a rate of 1 gives
 * recency 1 at any unit).
 */
function sectionKey(name: SectionName, rule: SectionRule, config: ScoreConfig): string {
  const { order, fit, limit, quota, requireRelevance } = rule;
  const hybrid = config.relevance === "hybrid" ? { ...HYBRID_DEFAULTS, ...config.hybrid } : null;
  const relevance = [config.relevance, config.stopwords ?? defaultStopwords(config.relevance), hybrid && [hybrid.fusion, hybrid.weight, hybrid.k]];
  const head = [name, order, fit, limit, quota, requireRelevance];
  if (order === "newest") return JSON.stringify([...head, requireRelevance ? relevance : null]);
  const decays = (name === "pooled" ? KINDS : [name]).map((kind) => config.kindDecay[kind] ?? config.decayRate);
  const unitMs = config.recency !== "rank" && decays.every((d) => d === 1) ? null : config.unitMs;
  // Every other score setting counts as it is, so a setting added later cannot be left out.
  const { kindDecay: _, decayRate: __, stopwords: ___, relevance: ____, ...rest } = { ...config, unitMs };
  return JSON.stringify([...head, relevance, decays, Object.entries(rest).sort(([a], [b]) => byCodeUnit(a, b))]);
}

function locatedSlots(index: ScopeIndex, ids: readonly string[] | undefined): number[] {
  return (
    ids?.flatMap((id) => {
      const slot = index.slotOf(id);
      return slot === undefined ? [] : [slot];
    }) ?? []
  );
}
