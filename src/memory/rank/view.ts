/**
 * What ranking reads: one scope's memories as columns indexed by slot, plus the orders that let it
 * stop early. The store's ScopeIndex is one such view; anything with these columns (a snapshot of
 * signals, say) can be ranked by the same code.
 */
import type { AccessRun } from "../store/access-order.js";

export interface RankView {
  readonly size: number;
  readonly ids: readonly string[];
  /** Kind code per slot (an index into KINDS). */
  readonly kind: Uint8Array;
  readonly createdAt: Float64Array;
  /** NaN when the memory has no occurredAt. */
  readonly occurredAt: Float64Array;
  readonly lastAccessedAt: Float64Array;
  /** Raw importance, 1–10. */
  readonly importance: Float64Array;
  readonly tokens: Int32Array;
  /** 1 until a correction supersedes the memory. */
  readonly current: Uint8Array;
  /** +Infinity when the memory never expires. */
  readonly expiresAt: Float64Array;
  /** Slots of each kind, ascending. */
  readonly kindSlots: readonly { readonly slots: Int32Array; readonly length: number }[];
  readonly accessOrder: {
    /** The current memories of one kind, one run per importance level, ascending by last access. */
    runsOf(kind: number): readonly AccessRun[];
    /** Whether a run's entry is its slot's live one. */
    isLive(slot: number, version: number): boolean;
  };
  /** A lower bound on the line cost of any memory of `kind` (any kind when null). */
  minTokens(kind: number | null): number;
}
