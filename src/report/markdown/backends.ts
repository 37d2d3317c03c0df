/**
 * Two generated sections of FAILURE_ANALYSIS.md about relevance backends:
 *
 * - do the conclusions drawn with shared words (about recency, importance, touch, and per-kind
 *   sections against one pool) still hold when relevance is by embeddings? Each conclusion is one
 *   ablation against the whole system under either backend;
 * - where do embeddings and BM25 disagree, by question category, with the questions where one
 *   finds the evidence and the other does not?
 *
 * Comparisons against the experiment's own baseline are quoted from its summary, so they have
 * the verdict EVALUATION.md gives them; the others come from a summary of the results seen from
 * their own reference (see rebase), Holm-corrected within that table.
 */
import { isRankMetric, metricReader } from "../../harness/metrics.js";
import type { ExperimentResults } from "../../harness/results/types.js";
import { rebase } from "../../harness/summary/rebase.js";
import { adjustedPLabel } from "../../harness/summary/adjustment.js";
import { ALL_GROUP, findRow, summarise } from "../../harness/summary/summarise.js";
import type { Comparison, ExperimentSummary } from "../../harness/summary/types.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import { comparisonVerdict } from "./verdict.js";
import { formatCount, formatP, formatRank, formatSignedInterval, metricDecimals } from "./format.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";

/** Each conclusion: what is switched off, under shared words and under embeddings, against each backend's whole system. */
export const BACKEND_CONCLUSIONS = [
  { conclusion: "recency and importance", words: "relevance-only", embedding: "relevance-only-embedding" },
  { conclusion: "recency decay", words: "no-decay", embedding: "embedding-no-decay" },
  { conclusion: "importance", words: "no-importance", embedding: "embedding-no-importance" },
  { conclusion: "touch", words: "no-touch", embedding: "embedding-no-touch" },
  // Ranks of a pooled and a per-kind policy are not comparable, so this one is read on coverage.
  { conclusion: "per-kind sections (against one pool)", words: "pooled", embedding: "embedding-pooled", metric: "coverage" },
] as const;
export const WORDS_SYSTEM = "full";
export const EMBEDDING_SYSTEM = "embedding";
export const LEXICAL_ALONE = "relevance-only-bm25";
export const DENSE_ALONE = "relevance-only-embedding";
const EXAMPLES = 2;

interface Options {
  seed: number;
  bootstrapResamples?: number;
  testResamples?: number;
}

/** Whether the results hold what the conclusions table needs; the missing ablations otherwise. */
export function missingForConclusions(results: ExperimentResults): string[] {
  const names = new Set(results.experiment.ablations.map((a) => a.name));
  return [WORDS_SYSTEM, EMBEDDING_SYSTEM, ...BACKEND_CONCLUSIONS.flatMap((c) => [c.words, c.embedding])].filter((n) => !names.has(n));
}

export function renderBackendConclusions(results: ExperimentResults, summary: ExperimentSummary, options: Options): string {
  if (summary.baseline !== WORDS_SYSTEM) throw new Error(`the conclusions table compares with "${WORDS_SYSTEM}", the baseline of the experiment; this one's is "${summary.baseline}"`);
  const dense = summarise(rebase(results, EMBEDDING_SYSTEM, BACKEND_CONCLUSIONS.map((c) => c.embedding)), options);
  const headline = summary.headline[0]!;
  const rows = BACKEND_CONCLUSIONS.map((c) => {
    const metric = "metric" in c ? c.metric : headline;
    const lexical = findRow(summary, c.words, metric, ALL_GROUP).vsBaseline!;
    const embedded = findRow(dense, c.embedding, metric, ALL_GROUP).vsBaseline!;
    return { ...c, metric, lexical, embedded, verdict: agreement(lexical, embedded, metric) };
  });
  const cell = (c: Comparison, metric: string) => `${formatSignedInterval(c.diff, metricDecimals(metric))}, ${adjustedPLabel(c)} ${formatP(c.pHolm)}${significant(c, metric) ? " ✓" : ""}`;
  const table = markdownTable(
    ["Switched off", "Metric", `Shared words: ablation − ${escapeMarkdown(WORDS_SYSTEM)}`, `Embeddings: ablation − ${escapeMarkdown(EMBEDDING_SYSTEM)}`, "Does it hold with embeddings?"],
    rows.map((r) => [`${escapeMarkdown(r.conclusion)} (${code(r.words)}, ${code(r.embedding)})`, code(r.metric), cell(r.lexical, r.metric), cell(r.embedded, r.metric), r.verdict.words]),
  );
  const held = rows.filter((r) => r.verdict.kind === "holds");
  const lead =
    `With relevance by embeddings, ${held.length} of ${rows.length} conclusions drawn with shared words hold (the same direction, significant under both backends)` +
    (held.length === 0 ? "." : `: ${held.map((r) => escapeMarkdown(r.conclusion)).join(", ")}.`);
  const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const others = rows.filter((r) => r.verdict.kind !== "holds").map((r) => `${sentence(escapeMarkdown(r.conclusion))}: ${r.verdict.words}.`);
  const unit = `Each Δ is over ${escapeProse(summary.unit.label)}, with its 95% interval; ✓ marks a difference that is significant after its family's adjustment (Holm's, or Westfall–Young's where the exact test decided the whole family).`;
  const families =
    `The shared-words column is the comparison EVALUATION.md makes with ${code(WORDS_SYSTEM)}, in its family; ` +
    `the embeddings column compares each ablation with ${code(EMBEDDING_SYSTEM)}, corrected together as one family over the ablations of this table.`;
  return [[lead, ...others].join(" "), table, `${unit} ${families}`].join("\n\n");
}

type Agreement = { kind: "holds" | "reverses" | "words-only" | "embeddings-only" | "neither"; words: string };

/** Significant after adjustment, as every report states it (see comparisonVerdict). */
const significant = (c: Comparison, metric: string) => comparisonVerdict(c, metric) === "significant";

function agreement(words: Comparison, embedding: Comparison, metric: string): Agreement {
  const sign = (c: Comparison) => Math.sign(c.diff.mean);
  const mde = (c: Comparison) => (c.mde === undefined ? "" : ` (minimum detectable effect ${formatNumber(c.mde, 3)})`);
  if (significant(words, metric) && significant(embedding, metric)) {
    return sign(words) === sign(embedding) ? { kind: "holds", words: "holds" } : { kind: "reverses", words: "reverses: significant both ways, in opposite directions" };
  }
  if (significant(words, metric)) return { kind: "words-only", words: `not detected with embeddings${mde(embedding)}: it may hold only with shared words` };
  if (significant(embedding, metric)) return { kind: "embeddings-only", words: `appears with embeddings only (not detected with shared words${mde(words)})` };
  return { kind: "neither", words: "not detected under either backend" };
}

/**
 * Where embeddings and BM25 disagree, by question category: each one's `metric`, the paired
 * difference, how many questions only one of them answers, and the questions where they differ most.
 */
export function renderDisagreement(results: ExperimentResults, metric: string, options: Options): string {
  if (!isRankMetric(metric)) throw new Error(`the disagreement table reads a rank metric, not "${metric}"`);
  const s = summarise(rebase(results, LEXICAL_ALONE, [DENSE_ALONE]), options);
  const d = metricDecimals(metric);
  const asks = askOutcomes(results, metric);
  const categories = s.groups.filter((g) => g !== ALL_GROUP);
  const groups = [ALL_GROUP, ...categories];
  const rows = groups.map((group) => {
    const mine = asks.filter((a) => group === ALL_GROUP || a.category === group);
    const count = (f: (a: AskOutcome) => boolean) => formatCount(mine.filter(f).length);
    const c = findRow(s, DENSE_ALONE, metric, group).vsBaseline!;
    return [
      group === ALL_GROUP ? "all" : escapeMarkdown(group),
      formatCount(mine.length),
      formatNumber(findRow(s, LEXICAL_ALONE, metric, group).value.mean, d),
      formatNumber(findRow(s, DENSE_ALONE, metric, group).value.mean, d),
      `${formatSignedInterval(c.diff, d)}${significant(c, metric) ? " ✓" : ""}`,
      formatP(c.pHolm),
      count((a) => a.lexical && a.dense),
      count((a) => a.dense && !a.lexical),
      count((a) => a.lexical && !a.dense),
      count((a) => !a.lexical && !a.dense),
    ];
  });
  const table = markdownTable(
    [
      "Category",
      { header: "Questions", align: "right" },
      { header: `${LEXICAL_ALONE}`, align: "right" },
      { header: `${DENSE_ALONE}`, align: "right" },
      "Δ embeddings − BM25 [95% CI]",
      { header: "p (adjusted)", align: "right" },
      { header: "Both", align: "right" },
      { header: "Embeddings only", align: "right" },
      { header: "BM25 only", align: "right" },
      { header: "Neither", align: "right" },
    ],
    rows,
  );
  const examples = groups
    .filter((g) => g !== ALL_GROUP)
    .flatMap((group) => {
      const mine = asks.filter((a) => a.category === group);
      const pick = (f: (a: AskOutcome) => boolean) => mine.filter(f).sort((a, b) => b.gap - a.gap || (a.key < b.key ? -1 : 1)).slice(0, EXAMPLES);
      return [...pick((a) => a.dense && !a.lexical), ...pick((a) => a.lexical && !a.dense)].map((a) => [
        escapeMarkdown(group),
        a.dense ? "embeddings" : "BM25",
        `${code(a.scenario)} ${code(a.ask)}: ${escapeMarkdown(a.query)}`,
        formatRank(a.lexicalRank),
        formatRank(a.denseRank),
      ]);
    });
  const exampleTable =
    examples.length === 0
      ? ""
      : markdownTable(["Category", "Found by", "Question", { header: "Best gold rank, BM25", align: "right" }, { header: "Best gold rank, embeddings", align: "right" }], examples);
  const lead =
    `Per question category: ${code(metric)} of BM25 alone (${code(LEXICAL_ALONE)}) and embeddings alone (${code(DENSE_ALONE)}), their paired difference ` +
    `(${escapeProse(s.unit.label)}; ✓ significant after adjustment within its category's family, by Holm or, where the exact test decided it, Westfall–Young), and how many questions each finds ` +
    `(a question counts as found when its ${code(metric)} is at least 0.5 over the seeds).`;
  return [lead, table, exampleTable === "" ? "" : `The questions where the two differ most, up to ${EXAMPLES} each way per category (ranks are medians over seeds; ${EMPTY_CELL} means not ranked):`, exampleTable]
    .filter((p) => p !== "")
    .join("\n\n");
}

interface AskOutcome {
  key: string;
  scenario: string;
  ask: string;
  query: string;
  category?: string;
  lexical: boolean;
  dense: boolean;
  lexicalRank: number | null;
  denseRank: number | null;
  /** How far apart the two best gold ranks are (an unranked gold counts as rank 1,000). */
  gap: number;
}

function askOutcomes(results: ExperimentResults, metric: string): AskOutcome[] {
  const byKey = new Map<string, { values: number[]; ranks: (number | null)[] }>();
  const read = metricReader(metric);
  for (const trial of results.trials) {
    if (trial.ablation !== LEXICAL_ALONE && trial.ablation !== DENSE_ALONE) continue;
    for (const ask of trial.asks) {
      const key = `${trial.ablation}\u0000${trial.scenario}\u0000${ask.ask}`;
      const entry = byKey.get(key) ?? { values: [], ranks: [] };
      entry.values.push(read(ask) ?? 0);
      const found = ask.ranks.filter((r): r is number => r !== null);
      entry.ranks.push(found.length === 0 ? null : Math.min(...found));
      byKey.set(key, entry);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const median = (xs: (number | null)[]) => {
    const sorted = xs.map((r) => r ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
    const m = sorted[(sorted.length - 1) >> 1];
    return m === undefined || !Number.isFinite(m) ? null : m;
  };
  return results.experiment.scenarios.flatMap((s) =>
    s.asks.flatMap((ask) => {
      const lexical = byKey.get(`${LEXICAL_ALONE}\u0000${s.name}\u0000${ask.id}`);
      const dense = byKey.get(`${DENSE_ALONE}\u0000${s.name}\u0000${ask.id}`);
      if (lexical === undefined || dense === undefined) return [];
      const [lexicalRank, denseRank] = [median(lexical.ranks), median(dense.ranks)];
      return [
        {
          key: `${s.name}\u0000${ask.id}`,
          scenario: s.name,
          ask: ask.id,
          query: ask.query,
          ...(ask.category === undefined ? {} : { category: ask.category }),
          lexical: mean(lexical.values) >= 0.5,
          dense: mean(dense.values) >= 0.5,
          lexicalRank,
          denseRank,
          gap: Math.abs((lexicalRank ?? 1000) - (denseRank ?? 1000)),
        },
      ];
    }),
  );
}
