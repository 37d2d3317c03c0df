/**
 * recollect's own memory system behind the contract: one in-memory store per scope, every
 * retrieval through the memory library's one ranker under one retrieval policy. Every built-in
 * policy and ablation runs as this system.
 */
import {
  type AskRequest,
  type Block,
  type MemoryStore,
  type NewMemory,
  openStore,
  PolicyKeys,
  type ScratchStores,
  type Query,
  retrieve,
  retrieveUnder,
  type RetrievalPolicy,
  sectionPlan,
  type TokenCounter,
} from "../../memory/index.js";
import type { MemorySystem, Retrieved, SystemMemory, SystemQuery, SystemScope } from "./contract.js";

/** A vector with the id of the model that made it. */
export interface Embedding {
  model: string;
  vector: ArrayLike<number>;
}

/** Where the system's vectors come from: the vectors a scenario writes out, or an embedding model's. */
export interface EmbeddingSource {
  memory(memory: SystemMemory): Embedding | null;
  query(text: string): Embedding | undefined;
}

export const NO_EMBEDDINGS: EmbeddingSource = { memory: () => null, query: () => undefined };

export interface RecollectOptions {
  policy: RetrievalPolicy;
  /** Prices each memory's line at write time. */
  tokenizer: TokenCounter;
  embeddings?: EmbeddingSource;
  /** Where each scope's in-memory store comes from: a thread's scratch stores, or a new connection each. */
  stores?: ScratchStores;
}

export function recollectSystem(options: RecollectOptions): MemorySystem {
  return {
    locates: true,
    async open(scope) {
      return new RecollectScope(scope, options);
    },
  };
}

/** A policy a retrieval ranks under, named as its results will be. */
export interface NamedPolicy {
  name: string;
  policy: RetrievalPolicy;
}

export class RecollectScope implements SystemScope {
  private readonly store: MemoryStore;
  private readonly embeddings: EmbeddingSource;
  private readonly keys = new PolicyKeys();

  constructor(
    private readonly scope: string,
    private readonly options: RecollectOptions,
  ) {
    this.store = options.stores?.open({ tokenizer: options.tokenizer }) ?? openStore(":memory:", { tokenizer: options.tokenizer });
    this.embeddings = options.embeddings ?? NO_EMBEDDINGS;
  }

  async write(memories: readonly SystemMemory[]): Promise<void> {
    this.store.rememberMany(memories.map((m) => this.toNew(m)));
  }

  async retrieve(query: SystemQuery): Promise<Retrieved> {
    const { policy } = this.options;
    return retrieved(retrieve(this.store, { ...this.ask(query), policy }), policy);
  }

  /**
   * Ranks one question under each of `policies` over the same store state, with its relevance
   * scored once and shared: what retrieve gives under each policy alone, as long as none touches
   * (a touch would change the state the next policy ranks). A sweep asks for this.
   */
  retrieveUnder(query: SystemQuery, policies: readonly NamedPolicy[]): Retrieved[] {
    // Named here, where the policies have names; the memory library refuses it too.
    const touching = policies.find((p) => p.policy.touch);
    if (touching !== undefined) throw new Error(`policy "${touching.name}" touches: one store state cannot serve it beside others`);
    const blocks = retrieveUnder(
      this.store,
      this.ask(query),
      policies.map((p) => p.policy),
      this.keys,
    );
    return blocks.map((block, i) => retrieved(block, policies[i].policy));
  }

  async close(): Promise<void> {
    this.store.close();
  }

  private ask(query: SystemQuery): AskRequest {
    const request: AskRequest = { scope: this.scope, query: this.query(query), now: query.now };
    if (query.locate !== undefined) {
      request.locate = query.locate.ids;
      request.neighbours = query.locate.neighbours;
      if (query.locate.within !== undefined) request.locateWithin = query.locate.within;
    }
    return request;
  }

  private query(query: SystemQuery): Query {
    const embedding = this.embeddings.query(query.query);
    return embedding === undefined ? { text: query.query } : { text: query.query, embedding };
  }

  private toNew(m: SystemMemory): NewMemory {
    return {
      id: m.id,
      scope: this.scope,
      kind: m.kind,
      text: m.text,
      createdAt: m.createdAt,
      occurredAt: m.occurredAt,
      lastAccessedAt: m.lastAccessedAt ?? m.createdAt,
      ...(m.importance === undefined ? {} : { importance: m.importance }),
      supersedes: m.supersedes,
      expiresAt: m.expiresAt,
      source: m.source,
      embedding: this.embeddings.memory(m),
    };
  }
}

function retrieved(block: Block, policy: RetrievalPolicy): Retrieved {
  // The block's sections are the plan's, in its order.
  const plan = sectionPlan(policy);
  return {
    ids: block.sections.flatMap((s) => s.kept),
    block: block.text,
    sections: block.sections.map((s, i) => ({
      name: s.name,
      ranked: s.ranked.map(({ id, rank, rel, rec, imp, total }) => ({ id, rank, rel, rec, imp, total })),
      kept: s.kept,
      weights: [...plan[i].score.weights] as [number, number, number],
    })),
  };
}
