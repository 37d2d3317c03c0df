/**
 * No string from a user's files can change the structure of the markdown reports. Every markdown
 * writer renders a small experiment whose user strings (names, ids, descriptions, queries, file
 * paths, dataset labels, model names) are all one random string, biased towards what markdown and
 * HTML treat specially; the output is parsed with a CommonMark parser with GFM tables (markdown-it,
 * raw HTML on) and compared with the output for a plain string:
 *
 * - no block (heading, list, quote, code block, table row, …) and no HTML node appears that the
 *   plain rendering does not have;
 * - each user string stays inside the one paragraph, heading or table cell it was written into:
 *   marked with ⟦ at one end, every container holds as many marks as with a plain string;
 * - every table row has as many cells as GFM (GitHub) counts for a plain string.
 *
 * The default suite tries RUNS strings, enough to try every piece of SPECIAL (a test says so);
 * `npm run test:slow` tries ten times as many, so that more pieces meet at the edges of a container.
 *
 * To cover a new writer, add it to WRITERS.
 */
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { SLOW } from "../../helpers/slow.js";
import { serialiseAnswers } from "../../../src/harness/answers/io.js";
import { sha256 } from "../../../src/harness/answers/recordings.js";
import { emptyImportStats } from "../../../src/datasets/conversations/index.js";
import { emptyConversionStats } from "../../../src/datasets/locomo/index.js";
import { importSection } from "../../../src/report/markdown/import-table.js";
import { ANSWER_FORMAT, type AnswerResults } from "../../../src/harness/answers/schema.js";
import type { AnswerRunSpec } from "../../../src/harness/answers/spec.js";
import { type AskResult, type ExperimentResults, RESULTS_FORMAT, type Trial } from "../../../src/harness/results/types.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import type { ExperimentSummary } from "../../../src/harness/summary/types.js";
import { prettyJson } from "../../../src/model/canonical-json.js";
import { chatKey } from "../../../src/model/recorder.js";
import { recordingKey } from "../../../src/model/recording-file.js";
import { createAnswersSection } from "../../../src/report/markdown/answers.js";
import { fullPolicy } from "../../../src/memory/index.js";
import { renderAppendix } from "../../../src/report/markdown/appendix.js";
import { renderCharts } from "../../../src/report/markdown/charts.js";
import { designedFailuresSection } from "../../../src/report/markdown/designed-failures.js";
import { renderExperiment, renderExperimentIntro } from "../../../src/report/markdown/experiment.js";
import { renderFigures } from "../../../src/report/markdown/figures.js";
import { experimentFindings, renderFindings } from "../../../src/report/markdown/findings.js";
import { locomoSection } from "../../../src/report/markdown/locomo.js";
import { renderManifest } from "../../../src/report/markdown/manifest.js";
import { renderRankChanges } from "../../../src/report/markdown/rank-changes.js";
import { renderSetup } from "../../../src/report/markdown/setup.js";
import {
  renderAblations,
  renderCategoryTable,
  renderHeadlineTable,
  renderSummaryTable,
  renderVsBaselineTable,
} from "../../../src/report/markdown/summary-tables.js";
import type { ReportContext } from "../../../src/report/reporter.js";

const RUNS = SLOW ? 2000 : 200;
const FAST = { seed: 5, bootstrapResamples: 200, testResamples: 500 };

/*
 * The fixture is built once with placeholder tokens in every user string and summarised once;
 * each run replaces the tokens with the random string. Ids and names that must stay distinct
 * (ablations, asks, gold memories, categories) get the string itself first, then the string with
 * a number appended, so the string's own first and last characters are tried in every role.
 */
const token = (name: string) => `\u0001${name}\u0001`;
const UNIQUE = { ablation: 2, ask: 2, gold: 3, category: 2 } as const;
const FREE = ["experiment", "file", "description", "scenario", "scenarioDescription", "ablationDescription", "ablationNote", "query", "dataset", "note", "dropped"] as const;
type Free = (typeof FREE)[number];
const t = Object.fromEntries(FREE.map((name) => [name, token(name)])) as Record<Free, string>;
const u = (kind: keyof typeof UNIQUE, i: number) => token(`${kind}${i}`);

function tokenResults(): ExperimentResults {
  const ablations = Array.from({ length: UNIQUE.ablation }, (_, i) => u("ablation", i));
  const golds = Array.from({ length: UNIQUE.gold }, (_, i) => u("gold", i));
  const asks = Array.from({ length: UNIQUE.ask }, (_, i) => ({
    id: u("ask", i),
    hour: 24 * (i + 1),
    query: t.query,
    expect: [golds[0]!, golds[1]!],
    required: [golds[0]!],
    stale: [golds[2]!],
    category: u("category", i),
  }));
  const seeds = [1, 2, 3];
  const trials: Trial[] = ablations.flatMap((ablation, a) =>
    seeds.map((seed) => ({
      scenario: t.scenario,
      ablation,
      seed,
      asks: asks.map((ask, q): AskResult => {
        const rank = 1 + ((a * 2 + q + seed) % 4);
        return {
          ask: ask.id,
          ranks: [rank, a === 1 ? null : rank + 1],
          coverage: a === 1 && seed > 1 ? 0 : 1,
          leaked: a === 1 && seed === 1 ? [golds[2]!] : [],
          tokens: 40 + 5 * a + seed,
          detail: {
            kept: [golds[0]!, golds[2]!],
            sectionTokens: { semantic: 20, episodic: 20 + a },
            gold: golds.slice(0, 2).map((id, g) => ({
              id,
              section: "semantic",
              rel: 0.5 + 0.1 * g,
              rec: a === 1 ? 0 : 0.9 - 0.1 * rank,
              imp: 0.5,
              total: 1.9 - 0.1 * rank,
              weights: [1, a === 1 ? 0 : 1, 1] as [number, number, number],
            })),
          },
        };
      }),
    })),
  );
  return {
    format: RESULTS_FORMAT,
    experiment: {
      name: t.experiment,
      family: t.experiment,
      file: t.file,
      description: t.description,
      baseline: ablations[0]!,
      ablations: ablations.map((name, a) => ({
        name,
        description: t.ablationDescription,
        note: t.ablationNote,
        policy: a === 0 ? fullPolicy : { ...fullPolicy, touch: false },
      })),
      seeds,
      k: [1],
      matchSource: false,
      importance: { rated: 3, unrated: 1, noise: 1, unratedNoise: 0 },
      cluster: "scenario",
      headline: ["recall_any@1", "coverage"],
      scenarios: [{ name: t.scenario, description: t.scenarioDescription, targets: [{ ablation: ablations[1]!, metric: "coverage" }], asks }],
      importStats: {
        ...emptyImportStats(),
        conversations: 1,
        scenarios: 1,
        sessions: 2,
        turns: 10,
        observations: 3,
        questions: 3,
        asked: 2,
        categories: { [u("category", 0)]: { questions: 2, asked: 1 }, [u("category", 1)]: { questions: 1, asked: 1 } },
        repairs: { ...emptyImportStats().repairs, unknownEvidence: 1 },
        examples: { unknownEvidence: [t.dropped] },
        // A LoCoMo import also records what converting the file repaired.
        locomo: emptyConversionStats(),
      },
    },
    manifest: {
      gitCommit: "0123abc",
      gitDirty: false,
      node: "v20.19.0",
      packages: { "better-sqlite3": "12.6.2" },
      tokenizerSha256: "f".repeat(64),
      // "LoCoMo" first, so the benchmark's own section is written too.
      datasets: [
        { name: `LoCoMo ${t.dataset}`, sha256: "e".repeat(64), note: t.note },
        { name: "conversations", sha256: "c".repeat(64), path: t.dataset },
      ],
      experimentHash: "d".repeat(64),
      wallTimeMs: 1234,
    },
    trials,
  };
}

const TOKEN_RESULTS = tokenResults();
const TOKEN_SUMMARY = summarise(TOKEN_RESULTS, FAST);

/** Every token replaced: free ones by `s`, unique ones by `s`, `s1`, `s2`, … */
function substitute<T>(value: T, s: string): T {
  const replace = (text: string) =>
    text.includes("\u0001")
      ? text.replace(/\u0001([a-zA-Z]+?)(\d*)\u0001/g, (_m, _name: string, index: string) => (index === "" || index === "0" ? s : `${s}${index}`))
      : text;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return replace(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [replace(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

const REAL_DIGEST = "a".repeat(64);

/** The answer-level run's files, with the user's strings in the model name, times and conditions. */
function answerFiles(s: string): { spec: AnswerRunSpec; files: Record<string, string> } {
  const spec: AnswerRunSpec = {
    experiment: s,
    recordings: `${s}.json`,
    results: `${s}-results.json`,
    seeds: 2,
    conditions: [
      { name: s, ablation: s, reflection: true, description: s },
      { name: `${s}1`, ablation: s, reflection: false, description: s },
    ],
  };
  const entries = Object.fromEntries(
    [0, 1].map((i) => {
      const request = chatKey({ model: s, messages: [{ role: "user", content: `question ${i}` }], options: { seed: i } });
      return [recordingKey(request), { request, response: { content: "answer" }, model: { name: s, digest: REAL_DIGEST }, recordedAt: `${s}${i}` }];
    }),
  );
  const recordings = prettyJson({ version: 1, entries });
  const ask = (matched: boolean) => ({
    ask: s, question: s, answer: s, keys: [s], matched: [matched], missing: matched ? [] : [s], score: matched ? 1 : 0, allMatched: matched, kept: [s],
  });
  const results: AnswerResults = {
    format: ANSWER_FORMAT,
    experiment: { name: s, file: s },
    model: s,
    seeds: [1, 2],
    conditions: spec.conditions.map((c) => ({ ...c })),
    reflectionThreshold: 150,
    importanceFallback: 5,
    manifest: {
      gitCommit: "abc",
      gitDirty: false,
      models: [{ name: s, digest: REAL_DIGEST }],
      recordings: { file: spec.recordings, sha256: sha256(recordings), calls: 2 },
      experimentHash: "e",
      tokenizerSha256: "t",
    },
    importance: { rated: 4, fallbacks: 1 },
    trials: spec.conditions.flatMap((c) =>
      [1, 2].map((seed) => ({
        scenario: s, condition: c.name, seed, importance: { rated: 2, fallbacks: 0 },
        reflections: 1, insights: [{ id: s, text: s, evidence: [s] }], asks: [ask(seed === 1)],
      })),
    ),
  };
  return { spec, files: { [spec.recordings]: recordings, [spec.results]: serialiseAnswers(results) } };
}

interface Fixture {
  results: ExperimentResults;
  summary: ExperimentSummary;
  context: ReportContext;
  answers: { spec: AnswerRunSpec; files: Record<string, string> };
  s: string;
}

function fixture(s: string): Fixture {
  const results = substitute(TOKEN_RESULTS, s);
  const summary = substitute(TOKEN_SUMMARY, s);
  const answers = answerFiles(s);
  return {
    results,
    summary,
    context: { results: [results], summaries: [summary], readExisting: (path) => answers.files[path] },
    answers,
    s,
  };
}

const view = (f: Fixture) => ({ results: f.results, summary: f.summary });
const category = (f: Fixture) => f.summary.groups.find((g) => g !== "all")!;

/** Every markdown writer of EVALUATION.md, the appendices and FAILURE_ANALYSIS.md, by name. */
const WRITERS: Record<string, (f: Fixture) => string> = {
  setup: (f) => renderSetup(f.context),
  findings: (f) => renderFindings([experimentFindings(f.summary, f.results)]),
  "experiment intro": (f) => renderExperimentIntro([view(f)]),
  ablations: (f) => renderAblations(f.results, f.summary),
  "headline table": (f) => renderHeadlineTable(f.summary),
  "headline table of a category": (f) => renderHeadlineTable(f.summary, category(f)),
  "category table": (f) => renderCategoryTable(f.summary, "coverage"),
  "summary table of a category": (f) => renderSummaryTable(f.summary, category(f)),
  "versus the baseline, of a category": (f) => renderVsBaselineTable(f.summary, category(f)),
  manifest: (f) => renderManifest(f.results),
  "designed failures": (f) => designedFailuresSection(f.context, view(f)),
  "rank changes": (f) => renderRankChanges(f.results, f.summary),
  charts: (f) => renderCharts(f.results, f.summary),
  LoCoMo: (f) => locomoSection(f.context, view(f)),
  "import table": (f) => importSection(f.context, view(f)),
  "answer-level": (f) => createAnswersSection(f.answers.spec)(f.context),
  "experiment section": (f) => renderExperiment(f.context, [view(f)]),
  appendix: (f) => renderAppendix(view(f)),
  "FAILURE_ANALYSIS figures": (f) =>
    renderFigures({
      results: f.results,
      summary: f.summary,
      ablation: f.summary.ablations[1]!,
      metric: "coverage",
      scenario: f.results.experiment.scenarios[0]!.name,
      claim: f.summary.designedFailures[0]!,
    }),
};

const markdownIt = new MarkdownIt({ html: true });
type Token = ReturnType<InstanceType<typeof MarkdownIt>["parse"]>[number];
/** Marks where a user string starts or ends, to find which container it landed in. */
const MARK = "\u27e6";
const parse = (markdown: string): Token[] => markdownIt.parse(markdown, {});

/** How many of each block token (paragraphs, headings, rows, cells, lists, fences…) and of raw HTML. */
function shape(tokens: Token[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (type: string) => counts.set(type, (counts.get(type) ?? 0) + 1);
  for (const token of tokens) {
    if (token.type !== "inline") add(token.type);
    for (const child of token.children ?? []) if (child.type === "html_inline") add(child.type);
  }
  return counts;
}

/**
 * The marks in each paragraph, heading or table cell (each has one inline token), in order. A user
 * string is marked at one end (alternating between runs, so both ends of the random string are
 * tried at the edge of its container); a container holds as many marks as it was given when no
 * string was split or moved.
 */
function sentinels(tokens: Token[]): string[] {
  return tokens.filter((t) => t.type === "inline").map((t) => t.content.replace(new RegExp(`[^${MARK}]`, "gu"), ""));
}

/**
 * The cell boundaries of each table line, as GFM splits a row: a pipe after an even run of
 * backslashes (none included) ends a cell, even inside a code span. markdown-it reads "\\|" as an
 * escaped pipe where GitHub sees an escaped backslash and a boundary, so rows are also counted here.
 */
function rowBoundaries(markdown: string): number[] {
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) => {
      let boundaries = 0;
      let slashes = 0;
      for (const ch of line) {
        if (ch === "|" && slashes % 2 === 0) boundaries++;
        slashes = ch === "\\" ? slashes + 1 : 0;
      }
      return boundaries;
    });
}

/** Pieces markdown and HTML give meaning to, mixed with arbitrary text. */
const SPECIAL = [
  "\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\v", "\f", "\n\n", "|", "\\", "\\|", "`", "```", "~~~", "#", "## ", ">", "> ",
  "- ", "+ ", "* ", "-", "+", "*", "1. ", "2)", "123456789.", "<", ">", "&", "&amp;", "&#10;", "&#124;", "<script>", "</td>", "<b>",
  "<!--", "-->", "<div>", "[", "]", "[x]: http://example.com", "![a](b)", "[^1]", "_", "___", "=", "===", "---", "|---|---|", "    ",
  "\t", " ", "$", "www.example.com", "http://example.com", "\u00a0", "<http://x.y>", ":", "- [ ] ", "\\\n",
];
/** A random string as the pieces it is made of, so that a run can tell which special pieces it tried. */
const randomPieces = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SPECIAL) }, { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) }), {
    minLength: 1,
    maxLength: 10,
  })
  .filter((pieces) => !/[\u0001\u27e6]/u.test(pieces.join("")));

/** What every writer writes for a plain string: its nodes, and its marks in each container. */
const plain = fixture(`x${MARK}`);
const reference = Object.fromEntries(
  Object.entries(WRITERS).map(([name, write]) => {
    const markdown = write(plain);
    const tokens = parse(markdown);
    return [name, { shape: shape(tokens), marks: sentinels(tokens), rows: rowBoundaries(markdown) }];
  }),
);

describe("markdown writers, fed random user strings", () => {
  it("each have user text to protect", () => {
    for (const [name, ref] of Object.entries(reference)) {
      // The charts' user text is only in link destinations, percent-encoded, so it shows no mark;
      // the LoCoMo section states only counts and the published reference.
      if (name === "charts" || name === "LoCoMo") continue;
      expect(ref.marks.join(""), name).toMatch(new RegExp(`^${MARK}+$`, "u"));
    }
  });

  it(`add no block and no HTML, and keep each string in its own paragraph, heading or cell (${RUNS} strings)`, () => {
    let run = 0;
    const tried = new Set<string>();
    fc.assert(
      fc.property(randomPieces, (pieces) => {
        for (const piece of pieces) tried.add(piece);
        const s = pieces.join("");
        const marked = run++ % 2 === 0 ? `${s}${MARK}` : `${MARK}${s}`;
        const f = fixture(marked);
        for (const [name, write] of Object.entries(WRITERS)) {
          const ref = reference[name]!;
          const markdown = write(f);
          const tokens = parse(markdown);
          for (const [type, count] of shape(tokens)) {
            if (count > (ref.shape.get(type) ?? 0)) throw new Error(`${name}: ${JSON.stringify(s)} adds a ${type} node (${count} > ${ref.shape.get(type) ?? 0})`);
          }
          expect(sentinels(tokens), `${name}: ${JSON.stringify(marked)}`).toEqual(ref.marks);
          expect(rowBoundaries(markdown), `${name}: ${JSON.stringify(marked)}`).toEqual(ref.rows);
        }
      }),
      { numRuns: RUNS, seed: 20240501 },
    );
    expect(run).toBe(RUNS);
    // A run count too small for the seed would leave a piece untried, and the property unproven for it.
    expect(SPECIAL.filter((piece) => !tried.has(piece))).toEqual([]);
  });
});
