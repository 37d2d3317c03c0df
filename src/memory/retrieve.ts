/**
 * The public retrieval entries. `retrieve` ranks every section of one policy over the scope's
 * index, fits each under its rule, touches what was kept (after all scoring, in one transaction)
 * and renders the block. `retrieveUnder` ranks one ask under many policies over an unchanged store
 * (a sweep's points): the query is scored once for all of them, and a section that policies agree
 * on is built once. Both are synchronous: query embeddings arrive precomputed.
 */
import { userError } from "../shared/errors.js";
import { emptySection, renderBlock } from "./block.js";
import { type BuiltSection, buildSection } from "./build-section.js";
import { AskRelevance, type BackendRelevance, PolicyKeys } from "./ask-relevance.js";
import { needsEmbedding } from "./relevance/index.js";
import { SectionRanking, type SectionRankingOptions } from "./rank/section-ranking.js";
import { sectionKey } from "./section-key.js";
import { type PlannedSection, sectionPlan } from "./section-plan.js";
import { KIND_CODE, type ScopeIndex } from "./store/index-columns.js";
import { type MemoryStore, scopeIndex, touchSlots } from "./store/store.js";
import { type Block, type Query, type RetrievalPolicy, type RetrieveRequest } from "./types.js";

/** One question at one moment: a retrieval request without its policy. */
export type AskRequest = Omit<RetrieveRequest, "policy">;

export function retrieve(store: MemoryStore, request: RetrieveRequest): Block {
  const { policy, query, now } = request;
  const plan = sectionPlan(policy);
  refuseMissingEmbedding(plan, query);
  const index = scopeIndex(store, request.scope);
  // A scope that holds nothing has nothing to rank, locate or touch.
  if (index === undefined) return emptyBlock(plan);
  const ask = new AskSections(index, request);
  // Each backend scores once per retrieval, whatever the number of sections using it.
  const relevance = new AskRelevance(index, query, now);
  const built = plan.map((section) => {
    const scored = relevance.for(section.score);
    return ask.build(section, scored, { matched: scored.matched(kindCode(section)) });
  });
  relevance.release();
  if (policy.touch) {
    touchSlots(
      store,
      request.scope,
      built.flatMap((b) => b.keptSlots),
      now,
    );
  }
  return assemble(built);
}

/**
 * The block each of `policies` gives for one ask, exactly as `retrieve` gives it under that
 * policy alone. Policies that touch are refused: a touch would change the store state that the
 * next policy ranks. `keys` states each policy's section settings once; a caller that ranks many
 * asks under the same policies passes the same keys to each.
 */
export function retrieveUnder(store: MemoryStore, request: AskRequest, policies: readonly RetrievalPolicy[], keys: PolicyKeys = new PolicyKeys()): Block[] {
  const touching = policies.findIndex((policy) => policy.touch);
  if (touching >= 0) throw userError(`policy ${touching + 1} of ${policies.length} touches: one store state cannot serve it beside others`);
  const plans = policies.map(sectionPlan);
  for (const plan of plans) refuseMissingEmbedding(plan, request.query);
  const index = scopeIndex(store, request.scope);
  if (index === undefined) return plans.map(emptyBlock);
  const ask = new AskSections(index, request);
  // Each backend scores once for every policy. Recency, and matched slots in relevance order, are
  // worth keeping because many rankings read them.
  const relevance = new AskRelevance(index, request.query, request.now);
  try {
    return policies.map((policy, p) =>
      assemble(
        // Policies that agree on everything a section reads share its result; the located
        // memories are the ask's, the same for every policy.
        plans[p].map((section) =>
          relevance.section(
            keys.of(policy, section.name, () => sectionKey(section)),
            () => {
              const scored = relevance.for(section.score);
              return ask.build(section, scored, { matched: scored.matchedByRelevance(kindCode(section)), matchedByRelevance: true, recency: relevance.recency });
            },
          ),
        ),
      ),
    );
  } finally {
    relevance.release();
  }
}

/** The sections of one ask, built over one index: what every section reads besides its settings. */
class AskSections {
  private readonly located: number[];
  private readonly neighbours: number;
  private readonly within: number;

  constructor(
    private readonly index: ScopeIndex,
    private readonly request: AskRequest,
  ) {
    this.located = locatedSlots(index, request.locate);
    this.neighbours = request.neighbours ?? 0;
    this.within = request.locateWithin ?? Number.POSITIVE_INFINITY;
  }

  build({ name, rule, score }: PlannedSection, scored: BackendRelevance, options: SectionRankingOptions): BuiltSection {
    const { index, request } = this;
    const ranking = new SectionRanking(index, kindCode({ name }), rule, score, scored.scores, request.now, options);
    return buildSection(index, name, rule, ranking, this.located, this.neighbours, this.within);
  }
}

/** A section's kind code, or null for the pooled section. */
function kindCode({ name }: Pick<PlannedSection, "name">): number | null {
  return name === "pooled" ? null : KIND_CODE[name];
}

/** A backend that ranks by embedding cannot rank a query without one. */
function refuseMissingEmbedding(plan: readonly PlannedSection[], query: Query): void {
  for (const { score } of plan) {
    if (needsEmbedding(score.relevance) && query.embedding === undefined) {
      throw userError(`the ${score.relevance} relevance backend needs query.embedding (a vector and its model)`);
    }
  }
}

function emptyBlock(plan: readonly PlannedSection[]): Block {
  return { sections: plan.map(({ name, rule }) => emptySection(name, rule.quota)), text: "" };
}

function assemble(built: readonly Omit<BuiltSection, "keptSlots">[]): Block {
  return {
    sections: built.map((b) => b.section),
    text: renderBlock(built.map((b) => ({ name: b.section.name, lines: b.lines }))),
  };
}

function locatedSlots(index: ScopeIndex, ids: readonly string[] | undefined): number[] {
  return (
    ids?.flatMap((id) => {
      const slot = index.slotOf(id);
      return slot === undefined ? [] : [slot];
    }) ?? []
  );
}
