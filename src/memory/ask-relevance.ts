/**
 * The relevance of one query to one scope's memories at one moment, per backend, computed on
 * first need. Retrieval makes one for each call, and retrieveUnder one for all the policies it
 * ranks one ask under (a policy sweep's), so each backend scores the query once for all of them.
 *
 * The scores stay right only while the scope's memories do not change: no write, and no touch
 * (a policy with touch on changes last access, which only recency reads, but a later write would
 * leave the scores short). Release it before the store changes.
 */
import { defaultStopwords, RELEVANCE_BACKENDS, type RelevanceScores } from "./relevance/index.js";
import { HYBRID_DEFAULTS } from "./relevance/hybrid.js";
import { byRelevance, matchedByKind } from "./rank/section-ranking.js";
import type { ScopeIndex } from "./store/index-columns.js";
import type { Query, ScoreConfig } from "./types.js";

export class AskRelevance {
  private readonly byBackend = new Map<string, BackendRelevance>();
  private readonly recencyByDecay = new Map<string, Float64Array>();
  private readonly sections = new Map<string, unknown>();
  /**
   * Only retrieval holds one, and releases it once done: use after release is a bug, so it is
   * refused with a plain Error that keeps its stack.
   */
  private released = false;

  constructor(
    private readonly index: ScopeIndex,
    private readonly query: Query,
    readonly now: number,
  ) {}

  /** The scores of the backend (and stopword setting) `config` ranks with. */
  for(config: ScoreConfig): BackendRelevance {
    if (this.released) throw new Error("AskRelevance used after release");
    const stopwords = config.stopwords ?? defaultStopwords(config.relevance);
    const hybrid = config.relevance === "hybrid" ? { ...HYBRID_DEFAULTS, ...config.hybrid } : undefined;
    const key = `${config.relevance}/${stopwords}${hybrid === undefined ? "" : `/${hybrid.fusion}/${hybrid.weight}/${hybrid.k}`}`;
    let relevance = this.byBackend.get(key);
    if (relevance === undefined) {
      const { index, query, now } = this;
      relevance = new BackendRelevance(index, RELEVANCE_BACKENDS[config.relevance]({ index, query, now, stopwords, ...(hybrid === undefined ? {} : { hybrid }) }));
      this.byBackend.set(key, relevance);
    }
    return relevance;
  }

  /**
   * Each memory's recency at this moment under one decay setting, computed on first need and
   * shared by every ranking of this ask (see RecencyMemo); only a shared AskRelevance offers it.
   */
  readonly recency = (decayRate: number, unitMs: number): Float64Array => {
    if (this.released) throw new Error("AskRelevance used after release");
    const key = `${decayRate}/${unitMs}`;
    let column = this.recencyByDecay.get(key);
    if (column === undefined) {
      column = new Float64Array(this.index.size).fill(Number.NaN);
      this.recencyByDecay.set(key, column);
    }
    return column;
  };

  /**
   * A section built for this ask under settings that `key` states in full: built once, and the
   * same (read-only) result handed to every policy with those settings.
   */
  section<T>(key: string, build: () => T): T {
    if (this.released) throw new Error("AskRelevance used after release");
    if (!this.sections.has(key)) this.sections.set(key, build());
    return this.sections.get(key) as T;
  }

  /** Hands the score arrays back to the index for later queries. */
  release(): void {
    // A second release finds nothing left to hand back: for() refuses to score once released.
    this.released = true;
    for (const { scores } of this.byBackend.values()) this.index.releaseScores(scores.values, scores.matched);
    this.byBackend.clear();
    this.recencyByDecay.clear();
    this.sections.clear();
  }
}

/**
 * A key per (policy, section), made once: stating a policy's settings in full costs more than
 * ranking a small section, and a sweep asks for it for every point at every ask. Policies are
 * values that are not changed once made, so a key stays right for as long as its policy lives.
 */
export class PolicyKeys {
  private readonly byPolicy = new WeakMap<object, Map<string, string>>();

  of(policy: object, section: string, make: () => string): string {
    let keys = this.byPolicy.get(policy);
    if (keys === undefined) this.byPolicy.set(policy, (keys = new Map()));
    let key = keys.get(section);
    if (key === undefined) keys.set(section, (key = make()));
    return key;
  }
}

/**
 * One backend's scores for the query, with its matched slots split by kind on first need, and
 * ordered by relevance on first need.
 */
export class BackendRelevance {
  private byKind: Int32Array[] | null = null;
  private readonly ordered = new Map<number | null, Int32Array>();

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

  /** The same slots ordered by relevance, highest first: worth sorting when many rankings walk them. */
  matchedByRelevance(kind: number | null): Int32Array | null {
    const slots = this.matched(kind);
    if (slots === null) return null;
    let ordered = this.ordered.get(kind);
    if (ordered === undefined) this.ordered.set(kind, (ordered = byRelevance(slots, this.scores.values)));
    return ordered;
  }
}
