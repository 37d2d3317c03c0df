/**
 * The three retrieval signals and their combination: pure functions with the exact contract of
 * the Generative Agents memory stream. Nothing here touches a store or a clock.
 */
import { dotLanes } from "./vector/lanes.js";

export const DEFAULT_DECAY_RATE = 0.995;
export const HOUR_MS = 3_600_000;

/**
 * `decayRate ** (units since last access)`. Measured from last access, never creation, so that
 * touching a memory on retrieval keeps it fresh. A future `lastAccessedAt` (clock skew) clamps to 1.
 */
export function recencyScore(
  now: number,
  lastAccessedAt: number,
  decayRate: number = DEFAULT_DECAY_RATE,
  unitMs: number = HOUR_MS,
): number {
  const units = Math.max(0, (now - lastAccessedAt) / unitMs);
  return Math.min(1, decayRate ** units);
}

/**
 * Recency by position, as the Generative Agents code computes it: `decayRate ** position`, with
 * `position` counted from 1 over the candidates in last-access order (see ScoreConfig.recency).
 */
export function rankRecencyScore(position: number, decayRate: number): number {
  return decayRate ** position;
}

/** A write-time importance rating (1–10) scaled to [0, 1], clamped. */
export function importanceScore(importance: number, maxScale = 10): number {
  return Math.min(1, Math.max(0, importance / maxScale));
}

/** Cosine similarity; a zero-norm vector on either side gives 0. */
export function relevanceScore(queryVec: ArrayLike<number>, memoryVec: ArrayLike<number>): number {
  if (queryVec.length !== memoryVec.length) {
    throw new Error(
      `relevanceScore: vectors differ in length (${queryVec.length} vs ${memoryVec.length})`,
    );
  }
  // Summed in eight lanes (see dotLanes): the in-memory index and its SIMD kernel sum the same way.
  const n = queryVec.length;
  const dot = dotLanes(queryVec, 0, memoryVec, 0, n);
  const qq = dotLanes(queryVec, 0, queryVec, 0, n);
  const mm = dotLanes(memoryVec, 0, memoryVec, 0, n);
  if (qq === 0 || mm === 0) return 0;
  return dot / (Math.sqrt(qq) * Math.sqrt(mm));
}

/** `w_rel·rel + w_rec·rec + w_imp·imp`. */
export function retrievalScore(
  rel: number,
  rec: number,
  imp: number,
  weights: readonly [number, number, number] = [1, 1, 1],
): number {
  return weights[0] * rel + weights[1] * rec + weights[2] * imp;
}
