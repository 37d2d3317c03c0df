/**
 * `hybrid`: BM25 and embedding relevance fused into one signal, as the hybrid retrievers of memory
 * products do, over the scope's memories current at `now`:
 *
 * - `rrf` (reciprocal rank fusion): each memory's ranks by BM25 and by cosine, each turned into
 *   1 / (k + rank), weighted by `weight` (the embedding's share) and 1 − weight, and divided by
 *   the most a memory can get, 1 / (k + 1). A memory no query word matches has no BM25 rank, and
 *   one without a vector no dense rank.
 * - `convex`: weight · cosine + (1 − weight) · BM25, each min-max scaled over the current memories
 *   first, so the weight means the same whatever the two scores' own ranges.
 *
 * Either way the signal lies in [0, 1] and every current memory can have one, so sections take it
 * as it is. Ties in a ranking go to the earlier slot, so fused scores never depend on chance.
 */
import type { HybridConfig } from "../types.js";
import { bm25Relevance } from "./bm25.js";
import { embeddingRelevance } from "./embedding.js";
import type { RelevanceInput, RelevanceScores } from "./types.js";

export const HYBRID_DEFAULTS: Readonly<HybridConfig> = { fusion: "rrf", weight: 0.5, k: 60 };

export function hybridRelevance(input: RelevanceInput & { hybrid?: Partial<HybridConfig> }): RelevanceScores {
  const { fusion, weight, k } = { ...HYBRID_DEFAULTS, ...input.hybrid };
  const { index, now } = input;
  const lexical = bm25Relevance(input);
  const dense = embeddingRelevance(input);
  const current: number[] = [];
  for (let slot = 0; slot < index.size; slot++) if (index.isCurrent(slot, now)) current.push(slot);
  const values = dense.values;
  if (fusion === "rrf") {
    // A memory without a vector has no dense rank, as one sharing no word has no BM25 rank.
    const vectors = index.vectors;
    const denseRank = ranks(vectors === null ? [] : current.filter((slot) => vectors.norm(slot) !== 0), dense.values);
    const lexicalRank = ranks(current.filter((slot) => lexical.values[slot] > 0), lexical.values);
    for (let slot = 0; slot < index.size; slot++) values[slot] = 0;
    const best = 1 / (k + 1);
    for (const slot of current) {
      const d = denseRank.get(slot);
      const l = lexicalRank.get(slot);
      const fused = (d === undefined ? 0 : weight / (k + d)) + (l === undefined ? 0 : (1 - weight) / (k + l));
      values[slot] = fused / best;
    }
  } else {
    const [dLow, dHigh] = range(current, dense.values);
    const [lLow, lHigh] = range(current, lexical.values);
    // With one value (a single current memory, or all equal), a positive score is the best there is.
    const scaled = (x: number, low: number, high: number) => (high > low ? (x - low) / (high - low) : x > 0 ? 1 : 0);
    const fusedOf = new Float64Array(index.size);
    for (const slot of current) fusedOf[slot] = weight * scaled(dense.values[slot], dLow, dHigh) + (1 - weight) * scaled(lexical.values[slot], lLow, lHigh);
    for (let slot = 0; slot < index.size; slot++) values[slot] = fusedOf[slot];
  }
  index.releaseScores(lexical.values, lexical.matched);
  return { values, matched: null, scaleToCandidates: false };
}

/** 1-based ranks of `slots` by value, highest first; ties go to the earlier slot. */
function ranks(slots: readonly number[], values: Float64Array): Map<number, number> {
  const ordered = [...slots].sort((a, b) => values[b] - values[a] || a - b);
  return new Map(ordered.map((slot, i) => [slot, i + 1]));
}

function range(slots: readonly number[], values: Float64Array): [number, number] {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const slot of slots) {
    low = Math.min(low, values[slot]);
    high = Math.max(high, values[slot]);
  }
  return slots.length === 0 ? [0, 0] : [low, high];
}
