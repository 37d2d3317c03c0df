/**
 * One section of a block: its ranking's head, fitted under the section's rule, with the search
 * past the head that `skip` needs, and the report of what was ranked where.
 */
import { fitSection } from "./block.js";
import type { Candidates } from "./rank/candidates.js";
import type { SectionRanking } from "./rank/section-ranking.js";
import type { ScopeIndex } from "./store/index-columns.js";
import { KINDS, type RankedMemory, type Section, type SectionName, type SectionRule } from "./types.js";

/** A built section, its kept memories' lines, and their slots (what retrieval touches). */
export interface BuiltSection {
  section: Section;
  lines: string[];
  keptSlots: number[];
}

export function buildSection(
  index: ScopeIndex,
  name: SectionName,
  rule: SectionRule,
  ranking: SectionRanking,
  located: readonly number[],
  /** How many memories either side of each located one to report as well. */
  neighbours = 0,
  /** Located memories are reported only when they place within this many first. */
  locateWithin = Number.POSITIVE_INFINITY,
): BuiltSection {
  // The head of the order, as deep as the item limit: fitting usually ends inside it.
  const depth = Math.max(rule.limit, 1);
  const head = ranking.top(depth);
  const fit = fitSection(head.slots.length, (p) => index.tokens[head.slots[p]], rule, ranking.minCost);
  const keptSlots = fit.kept.map((p) => head.slots[p]);
  let tokensUsed = fit.tokensUsed;
  // `skip` goes on past the head, among memories that fit the quota left: any better one either
  // was kept or did not fit a larger quota. Ordering only those is far cheaper than ordering
  // everything before them, and deepens the same way when too few of them fit. Only `skip` under
  // a quota leaves a full head incomplete: with `stop` or no quota, each memory of the head is
  // kept or ends the section.
  const quota = rule.quota;
  if (
    !fit.complete &&
    head.slots.length === depth
  ) {
    const keptSet = new Set(keptSlots);
    const left = (quota as number) - tokensUsed;
    const rest = { fit: rule.fit, limit: rule.limit - keptSlots.length, quota: left };
    // At least 1: an incomplete head kept fewer memories than the limit.
    let more = rest.limit;
    for (;;) {
      const fitting = ranking.top(more, (slot) => index.tokens[slot] <= left && !keptSet.has(slot));
      const fitRest = fitSection(fitting.slots.length, (p) => index.tokens[fitting.slots[p]], rest, ranking.minCost);
      if (fitRest.complete || fitting.slots.length < more) {
        for (const p of fitRest.kept) keptSlots.push(fitting.slots[p]);
        tokensUsed += fitRest.tokensUsed;
        break;
      }
      more *= 4;
    }
  }

  // The head as deep as filling looked, then located memories and their neighbours at their own
  // ranks. (Memories kept past the head join only when located: their ranks would cost counting
  // everything ranked above them.)
  const byRank = new Map<number, RankedMemory>();
  for (let i = 0; i < fit.examined; i++) byRank.set(i + 1, entry(index, head, i, i + 1));
  for (const l of ranking.rankOf(located, locateWithin)) {
    byRank.set(l.rank, entry(index, l.entry, 0, l.rank));
    // The head holds every rank up to its depth, or every candidate when it is shorter.
    if (l.rank + neighbours <= head.slots.length || head.slots.length < depth) {
      const last = Math.min(l.rank + neighbours, head.slots.length);
      for (let r = Math.max(1, l.rank - neighbours); r <= last; r++) byRank.set(r, entry(index, head, r - 1, r));
    } else {
      for (const n of ranking.around(l, neighbours)) byRank.set(n.rank, entry(index, n.entry, 0, n.rank));
    }
  }
  const ranked = [...byRank.values()].sort((a, b) => a.rank - b.rank);

  const kept = keptSlots.map((slot) => index.ids[slot]);
  const keptIds = new Set(kept);
  return {
    section: {
      name,
      ranked,
      kept,
      dropped: ranked.filter((r) => !keptIds.has(r.id)).map((r) => r.id),
      tokensUsed,
      quota,
    },
    lines: keptSlots.map((slot) => index.line(slot)),
    keptSlots,
  };
}

/** The ranked memory of entry `i` of `c`, at `rank`. */
function entry(index: ScopeIndex, c: Candidates, i: number, rank: number): RankedMemory {
  const slot = c.slots[i];
  return {
    id: index.ids[slot],
    kind: KINDS[index.kind[slot]],
    source: index.sourceOf(slot),
    rank,
    tokens: index.tokens[slot],
    rel: c.rel[i],
    rec: c.rec[i],
    imp: c.imp[i],
    total: c.total[i],
  };
}
