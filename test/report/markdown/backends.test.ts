import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import type { AblationInfo, AskInfo, ExperimentResults, Trial } from "../../../src/harness/results/types.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import {
  BACKEND_CONCLUSIONS,
  DENSE_ALONE,
  EMBEDDING_SYSTEM,
  LEXICAL_ALONE,
  missingForConclusions,
  renderBackendConclusions,
  renderDisagreement,
  WORDS_SYSTEM,
} from "../../../src/report/markdown/backends.js";

/**
 * 24 questions in three categories (single-hop, temporal, multi-hop, in turn), two seeds, the asks
 * the units. Every ablation finds each gold memory first (rank 1, coverage 1) unless planted:
 * - relevance-only and relevance-only-embedding lose (rank 5) everywhere but temporal questions,
 *   the latter's questions: both backends hurt, so that conclusion holds;
 * - no-decay loses under shared words only, embedding-no-importance under embeddings only,
 *   neither touch ablation loses;
 * - coverage: pooled drops to 0 against full's 1, embedding-pooled rises to 1 against embedding's 0.5;
 * - relevance-only-bm25 finds only the single-hop questions.
 */
const CATEGORIES = ["single-hop", "temporal", "multi-hop"] as const;
const ASKS: AskInfo[] = Array.from({ length: 24 }, (_, i) => ({
  id: `q${String(i + 1).padStart(2, "0")}`,
  hour: 100,
  query: `question ${i + 1} about <the> [notes]`,
  expect: [`m${i + 1}`],
  required: [`m${i + 1}`],
  stale: [],
  category: CATEGORIES[i % 3],
}));

const finds = (ablation: string, category: string): boolean => {
  switch (ablation) {
    case "relevance-only":
    case DENSE_ALONE:
      return category === "temporal";
    case "no-decay":
    case "embedding-no-importance":
      return false;
    case LEXICAL_ALONE:
      return category === "single-hop";
    default:
      return true;
  }
};
const COVERAGE: Record<string, number> = { pooled: 0, [EMBEDDING_SYSTEM]: 0.5 };

const ABLATIONS = [WORDS_SYSTEM, EMBEDDING_SYSTEM, ...BACKEND_CONCLUSIONS.flatMap((c) => [c.words, c.embedding]), LEXICAL_ALONE];

function backendResults(names: readonly string[] = ABLATIONS): ExperimentResults {
  const ablations: AblationInfo[] = names.map((name) => ({ name, description: name, policy: fullPolicy }));
  const trials: Trial[] = names.flatMap((ablation) =>
    [1, 2].map((seed) => ({
      scenario: "conversation",
      ablation,
      seed,
      asks: ASKS.map((ask) => {
        const found = finds(ablation, ask.category!);
        return { ask: ask.id, ranks: [found ? 1 : 5], coverage: COVERAGE[ablation] ?? 1, leaked: [], tokens: 40 };
      }),
    })),
  );
  return {
    format: "recollect-results/2",
    experiment: {
      name: "backends",
      family: "backends",
      file: "experiments/backends.yaml",
      description: "Relevance backends compared.",
      baseline: WORDS_SYSTEM,
      ablations,
      seeds: [1, 2],
      k: [1, 5],
      matchSource: false,
      cluster: "ask",
      headline: ["recall_any@1", "coverage"],
      importance: { rated: 0, unrated: 24, noise: 0, unratedNoise: 0 },
      scenarios: [{ name: "conversation", description: "a benchmark-like conversation", targets: [], asks: ASKS }],
    },
    manifest: { gitCommit: "0", gitDirty: false, node: "v20.0.0", packages: {}, tokenizerSha256: "a", datasets: [], experimentHash: "b", wallTimeMs: 1 },
    trials,
  };
}

const OPTIONS = { seed: 1, bootstrapResamples: 200, testResamples: 200 };

/** The body rows of the first markdown table in `text`, cells trimmed. */
function tableRows(text: string, which = 0): string[][] {
  const tables = text.split("\n\n").filter((block) => block.startsWith("|"));
  return tables[which]!
    .split("\n")
    .slice(2)
    .map((line) => line.slice(1, -1).split("|").map((c) => c.trim()));
}

describe("missingForConclusions", () => {
  it("is empty when the results hold both whole systems and every conclusion's two ablations", () => {
    expect(missingForConclusions(backendResults())).toEqual([]);
  });

  it("names what is missing: the whole systems first, then each conclusion's pair in turn", () => {
    const without = ABLATIONS.filter((n) => n !== "embedding-no-touch" && n !== EMBEDDING_SYSTEM && n !== "pooled");
    expect(missingForConclusions(backendResults(without))).toEqual([EMBEDDING_SYSTEM, "embedding-no-touch", "pooled"]);
  });
});

describe("renderBackendConclusions", () => {
  const results = backendResults();
  const summary = summarise(results, OPTIONS);
  const text = renderBackendConclusions(results, summary, OPTIONS);
  const rows = tableRows(text);

  it("has one row per conclusion, each ablation against its backend's whole system", () => {
    expect(rows.map((r) => r[0])).toEqual(BACKEND_CONCLUSIONS.map((c) => `${c.conclusion} (\`${c.words}\`, \`${c.embedding}\`)`));
    expect(rows.map((r) => r[1])).toEqual(["`recall_any@1`", "`recall_any@1`", "`recall_any@1`", "`recall_any@1`", "`coverage`"]);
  });

  it("says whether each conclusion holds with embeddings", () => {
    expect(rows.map((r) => r[4]!.replace(/ \(minimum detectable effect [\d.]+\)/, ""))).toEqual([
      "holds",
      "not detected with embeddings: it may hold only with shared words",
      "appears with embeddings only (not detected with shared words)",
      "not detected under either backend",
      "reverses: significant both ways, in opposite directions",
    ]);
  });

  it("quotes each difference with its interval and Holm p, marking the significant ones", () => {
    const [relevance, decay] = rows;
    expect(relevance![2]).toMatch(/^−0\.667 \[.+\], p \(Holm\) .+ ✓$/);
    expect(relevance![3]).toMatch(/^−0\.667 \[.+\], p \(Holm\) .+ ✓$/);
    expect(decay![2]).toMatch(/^−1\.000 .*✓$/);
    expect(decay![3]).not.toContain("✓");
  });

  it("leads with how many conclusions hold, naming them, then the others", () => {
    expect(text.startsWith("With relevance by embeddings, 1 of 5 conclusions drawn with shared words hold (the same direction, significant under both backends): recency and importance. Recency decay: not detected with embeddings")).toBe(true);
    expect(text).toContain("the embeddings column compares each ablation with `embedding`, corrected together as one family over the ablations of this table.");
  });

  it("refuses a summary whose baseline is not the shared-words system", () => {
    const other = summarise({ ...results, experiment: { ...results.experiment, baseline: EMBEDDING_SYSTEM } }, OPTIONS);
    expect(() => renderBackendConclusions(results, other, OPTIONS)).toThrow('the conclusions table compares with "full", the baseline of the experiment; this one\'s is "embedding"');
  });
});

describe("renderDisagreement", () => {
  const results = backendResults();
  const text = renderDisagreement(results, "recall_any@1", OPTIONS);

  it("counts, per question category, the questions both backends find, one of them only, or neither", () => {
    const rows = tableRows(text).map(([category, questions, , , , , both, dense, lexical, neither]) => [category, questions, both, dense, lexical, neither]);
    expect(rows).toEqual([
      ["all", "24", "0", "8", "8", "8"],
      ["multi-hop", "8", "0", "0", "0", "8"],
      ["single-hop", "8", "0", "0", "8", "0"],
      ["temporal", "8", "0", "8", "0", "0"],
    ]);
  });

  it("gives each backend's mean and their paired difference per category", () => {
    const byCategory = new Map(tableRows(text).map((row) => [row[0], row]));
    expect(byCategory.get("single-hop")!.slice(2, 5)).toEqual(["1.000", "0.000", expect.stringMatching(/^−1\.000 .*✓$/)]);
    expect(byCategory.get("temporal")!.slice(2, 5)).toEqual(["0.000", "1.000", expect.stringMatching(/^\+1\.000 .*✓$/)]);
    expect(byCategory.get("all")!.slice(2, 4)).toEqual(["0.333", "0.333"]);
  });

  it("lists up to two questions each way per category where the two differ, with their best gold ranks, escaped", () => {
    expect(tableRows(text, 1)).toEqual([
      ["single-hop", "BM25", "`conversation` `q01`: question 1 about &lt;the> \\[notes\\]", "1", "5"],
      ["single-hop", "BM25", "`conversation` `q04`: question 4 about &lt;the> \\[notes\\]", "1", "5"],
      ["temporal", "embeddings", "`conversation` `q02`: question 2 about &lt;the> \\[notes\\]", "5", "1"],
      ["temporal", "embeddings", "`conversation` `q05`: question 5 about &lt;the> \\[notes\\]", "5", "1"],
    ]);
  });

  it("reads a rank metric only", () => {
    expect(() => renderDisagreement(results, "coverage", OPTIONS)).toThrow('the disagreement table reads a rank metric, not "coverage"');
  });
});
