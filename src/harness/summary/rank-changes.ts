import type { AskResult, ExperimentResults, GoldDetail, NeighbourDetail } from "../results/types.js";
import type { RankChange } from "./types.js";
import { askLookup } from "./align.js";

export const NOT_A_CANDIDATE = "not a candidate (filtered or not current)";
/** The rank changed, but no recorded neighbour changed places with the memory. */
export const BEYOND_NEIGHBOURS = "other memories moved past it (beyond its recorded neighbours, or absent on one side)";
/** The margins to the memories that changed places with it moved by less than can be shown. */
export const NO_SIGNAL_MOVED = "no signal moved the margins (ties broken differently)";
/** One side's system reports ranks but no signals (a baseline, a module or a subprocess). */
export const NO_SIGNALS = "its system reports no signals";

type Breakdown = NonNullable<RankChange["baseline"]>;
const SIGNALS = ["rel", "rec", "imp"] as const;
type Signal = (typeof SIGNALS)[number];

/** A gold memory as one trial saw it: its rank and, with detail, its signals and neighbours. */
export interface GoldSide {
  rank: number | null;
  detail: GoldDetail | null;
}

/**
 * For every ask with a recorded detail, every gold memory and every non-baseline ablation whose
 * median rank over seeds differs from the baseline's median rank.
 *
 * Ranks are medians over seeds, with "not ranked" worse than any rank; for an even number of
 * seeds the lower median (the better of the two middle ranks) is taken, so the reported rank is
 * always one that was observed. The explanation comes from one seed, the same on both sides, so
 * a difference in a signal is the ablation's doing, not a different seed's jitter: the first seed
 * (in the experiment's order) with detail on both sides whose own ranks moved the way the medians
 * did, or else the first with detail on both sides.
 */
export function rankChanges(results: ExperimentResults, scenario?: string): RankChange[] {
  const { experiment } = results;
  const lookup = askLookup(results);
  const baseline = experiment.baseline;
  const changes: RankChange[] = [];
  for (const s of experiment.scenarios) {
    if (scenario !== undefined && s.name !== scenario) continue;
    for (const ask of s.asks) {
      const baseResults = experiment.seeds.map((seed) => lookup(s.name, baseline, seed, ask.id));
      if (!baseResults.some((r) => r?.detail !== undefined)) continue;
      ask.expect.forEach((gold, goldIndex) => {
        const baselineRank = medianRank(baseResults.map((r) => r?.ranks[goldIndex] ?? null));
        for (const { name: ablation } of experiment.ablations) {
          if (ablation === baseline) continue;
          const variantResults = experiment.seeds.map((seed) => lookup(s.name, ablation, seed, ask.id));
          const ablationRank = medianRank(variantResults.map((r) => r?.ranks[goldIndex] ?? null));
          if (ablationRank === baselineRank) continue;
          const seed = explainingSeed(baseResults, variantResults, goldIndex, rankOrder(baselineRank) < rankOrder(ablationRank));
          const base = seed < 0 ? null : side(baseResults[seed]!, gold, goldIndex);
          const variant = seed < 0 ? null : side(variantResults[seed]!, gold, goldIndex);
          changes.push({
            scenario: s.name,
            ask: ask.id,
            gold,
            ablation,
            baselineRank,
            ablationRank,
            movedBy: base === null || variant === null ? NOT_A_CANDIDATE : movedBy(base, variant),
            baseline: breakdown(base?.detail ?? null),
            variant: breakdown(variant?.detail ?? null),
          });
        }
      });
    }
  }
  return changes;
}

/** Lower median with null (not ranked) sorted after every rank. */
export function medianRank(ranks: readonly (number | null)[]): number | null {
  if (ranks.length === 0) return null;
  const sorted = ranks.map(rankOrder).sort((a, b) => a - b);
  const median = sorted[(sorted.length - 1) >> 1];
  return Number.isFinite(median) ? median : null;
}

/**
 * Why a gold memory's rank moved between the baseline and the ablation, in one seed: the signal
 * that most changed its score margin to the memories that changed places with it.
 *
 * A memory "changed places" with it when it was on one side of it under the baseline and on the
 * other under the ablation (from the neighbours recorded around each rank). For each such rival
 * and each signal, the margin is the weighted contribution rival − gold; its change from the
 * baseline to the ablation, summed over the rivals, names the signal that moved the rank: the
 * largest gain for the rivals when the gold memory dropped, for the gold memory when it rose.
 * E.g. "rec +0.10 (lot-a overtook it)": under the ablation, recency gave lot-a 0.10 more over
 * the gold memory than under the baseline.
 */
export function movedBy(base: GoldSide, variant: GoldSide): string {
  const b = base.detail;
  const v = variant.detail;
  if (b === null || v === null || b.section === null || v.section === null || base.rank === null || variant.rank === null) {
    return NOT_A_CANDIDATE;
  }
  const [bs, vs] = [breakdown(b), breakdown(v)];
  if (bs === null || vs === null) return NO_SIGNALS;
  const dropped = variant.rank > base.rank;
  const before = new Map((b.neighbours ?? []).map((n) => [n.id, n]));
  const rivals: { id: string; shift: Record<Signal, number> }[] = [];
  for (const after of v.neighbours ?? []) {
    const earlier = before.get(after.id);
    if (earlier === undefined) continue;
    const changedPlaces = dropped
      ? after.rank < variant.rank && earlier.rank > base.rank
      : after.rank > variant.rank && earlier.rank < base.rank;
    if (!changedPlaces) continue;
    const shift = {} as Record<Signal, number>;
    for (const signal of SIGNALS) shift[signal] = margin(vs, after, signal) - margin(bs, earlier, signal);
    rivals.push({ id: after.id, shift });
  }
  if (rivals.length === 0) return BEYOND_NEIGHBOURS;

  // Margins are rival − gold: a drop is explained by the largest rise, a rise by the largest fall.
  const direction = dropped ? 1 : -1;
  let best: Signal = SIGNALS[0];
  let bestTotal = -Infinity;
  for (const signal of SIGNALS) {
    const total = direction * rivals.reduce((sum, r) => sum + r.shift[signal], 0);
    if (total > bestTotal) {
      best = signal;
      bestTotal = total;
    }
  }
  // Below the two decimals shown, a "move" would read as "+0.00".
  if (bestTotal < 0.005) return NO_SIGNAL_MOVED;
  const lead = rivals.reduce((a, r) => (direction * r.shift[best] > direction * a.shift[best] ? r : a));
  const others = rivals.length > 1 ? ` and ${rivals.length - 1} more` : "";
  const who = dropped ? `${lead.id}${others} overtook it` : `it overtook ${lead.id}${others}`;
  return `${best} +${(direction * lead.shift[best]).toFixed(2)} (${who})`;
}

/** Weighted contribution of `signal`, rival − gold, with the weights the gold's section used. */
function margin(gold: Breakdown, rival: NeighbourDetail, signal: Signal): number {
  const weight = gold.weights[SIGNALS.indexOf(signal)];
  return weight * (rival[signal] - gold[signal]);
}

function explainingSeed(
  base: readonly (AskResult | undefined)[],
  variant: readonly (AskResult | undefined)[],
  goldIndex: number,
  dropped: boolean,
): number {
  const both = (i: number) => base[i]?.detail !== undefined && variant[i]?.detail !== undefined;
  const movedAsMedians = (i: number) => {
    const b = rankOrder(base[i]!.ranks[goldIndex]);
    const v = rankOrder(variant[i]!.ranks[goldIndex]);
    return dropped ? v > b : v < b;
  };
  const found = base.findIndex((_, i) => both(i) && movedAsMedians(i));
  return found >= 0 ? found : base.findIndex((_, i) => both(i));
}

function side(result: AskResult, gold: string, goldIndex: number): GoldSide {
  return { rank: result.ranks[goldIndex], detail: result.detail!.gold.find((g) => g.id === gold) ?? null };
}

/** The gold memory's signals and weights, when it was a candidate of a system that reports them. */
function breakdown(found: GoldDetail | null): Breakdown | null {
  if (found === null || found.section === null) return null;
  const { rel, rec, imp, total, weights } = found;
  if (rel === undefined || rec === undefined || imp === undefined || total === undefined || weights === undefined) return null;
  return { rel, rec, imp, total, weights };
}

function rankOrder(rank: number | null): number {
  return rank ?? Number.POSITIVE_INFINITY;
}
