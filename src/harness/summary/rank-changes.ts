import type { ExperimentResults, GoldDetail } from "../results/types.js";
import type { RankChange } from "../summary-types.js";
import { askLookup } from "./align.js";

export const NOT_A_CANDIDATE = "not a candidate (filtered or not current)";
/** When no signal of the memory itself moved, its rank changed because other memories did. */
export const NO_SIGNAL_MOVED = "no signal moved (other memories did)";

type Breakdown = NonNullable<RankChange["baseline"]>;
const WEIGHT_OF = { rel: 0, rec: 1, imp: 2 } as const;
const SIGNALS = ["rel", "rec", "imp"] as const;

/**
 * For every ask with a recorded detail, every gold memory and every non-baseline ablation whose
 * median rank over seeds differs from the baseline's median rank.
 *
 * Ranks are medians over seeds, with "not ranked" worse than any rank; for an even number of
 * seeds the lower median (the better of the two middle ranks) is taken, so the reported rank is
 * always one that was observed. The breakdowns come from the first seed (in the experiment's
 * seed order) that has detail under both the baseline and the ablation: the same seed on both
 * sides, so a difference in a signal is the ablation's doing, not a different seed's jitter.
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
          const pairIndex = experiment.seeds.findIndex(
            (_, i) => baseResults[i]?.detail !== undefined && variantResults[i]?.detail !== undefined,
          );
          const base = pairIndex < 0 ? null : breakdown(baseResults[pairIndex]!.detail!.gold, gold);
          const variant = pairIndex < 0 ? null : breakdown(variantResults[pairIndex]!.detail!.gold, gold);
          changes.push({
            scenario: s.name,
            ask: ask.id,
            gold,
            ablation,
            baselineRank,
            ablationRank,
            movedBy: movedBy(base, variant),
            baseline: base,
            variant,
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
  const sorted = ranks.map((r) => r ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  const median = sorted[(sorted.length - 1) >> 1];
  return Number.isFinite(median) ? median : null;
}

/**
 * The signal whose weighted contribution (weight × signal) differs most between the two
 * breakdowns, signed as ablation − baseline, e.g. "rec −0.42". Ties go to the earlier of rel,
 * rec, imp. Weights matter: relevance-only keeps a memory's recency but weighs it 0.
 */
export function movedBy(base: Breakdown | null, variant: Breakdown | null): string {
  if (base === null || variant === null) return NOT_A_CANDIDATE;
  let best: (typeof SIGNALS)[number] = SIGNALS[0];
  let bestDiff = 0;
  for (const signal of SIGNALS) {
    const contribution = (b: Breakdown) => b.weights[WEIGHT_OF[signal]] * b[signal];
    const diff = contribution(variant) - contribution(base);
    if (Math.abs(diff) > Math.abs(bestDiff)) {
      best = signal;
      bestDiff = diff;
    }
  }
  // Below the two decimals shown, a "move" would read as "rec +0.00".
  if (Math.abs(bestDiff) < 0.005) return NO_SIGNAL_MOVED;
  return `${best} ${bestDiff < 0 ? "\u2212" : "+"}${Math.abs(bestDiff).toFixed(2)}`;
}

function breakdown(gold: readonly GoldDetail[], id: string): Breakdown | null {
  const found = gold.find((g) => g.id === id);
  if (found === undefined || found.section === null) return null;
  return { rel: found.rel, rec: found.rec, imp: found.imp, total: found.total, weights: found.weights };
}
