/**
 * Tests mirror src/ by path: src/a/b.ts is specified by test/a/b.test.ts. A source file without
 * one is listed in EXEMPT with its reason, and the reason is checked, so the list cannot rot:
 * a types-only file declares no values, a barrel only re-exports, a file covered through other
 * tests is reached by each of them through imports, and a file run as a process is run by a test
 * that exists.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { filesUnder, importGraph, ROOT, sourceFiles } from "./source-graph.js";

type Exemption =
  /** Only interfaces, type aliases and type-only imports and exports: nothing runs. */
  | { kind: "types-only" }
  /** Only `export … from` lines: its files have their own tests. */
  | { kind: "barrel" }
  /** A part of a unit whose tests (named here) exercise it through its public entry. */
  | { kind: "covered"; by: string[]; why: string }
  /** An entry point run as a process or a thread by the named test. */
  | { kind: "run"; by: string; why: string };

const types = { kind: "types-only" } as const;
const barrel = { kind: "barrel" } as const;
const covered = (why: string, ...by: string[]): Exemption => ({ kind: "covered", by, why });
const cli = (why: string): Exemption => ({ kind: "run", by: "test/cli/main.test.ts", why });

const EXEMPT: Record<string, Exemption> = {
  // Types and barrels.
  "src/cli/heartbeat/messages.ts": types,
  "src/harness/summary/types.ts": types,
  "src/memory/rank/view.ts": types,
  "src/memory/relevance/types.ts": types,
  "src/model/types.ts": types,
  "src/report/charts/chart-spec.ts": types,
  "src/report/markdown/section-providers.ts": types,
  "src/report/reporter.ts": types,
  "src/datasets/conversations/index.ts": barrel,
  "src/datasets/locomo/index.ts": barrel,
  "src/harness/stats/index.ts": barrel,
  "src/harness/systems/index.ts": barrel,
  "src/memory/index.ts": barrel,
  "src/model/embedding/index.ts": barrel,

  // Entry points, run as processes or threads.
  "src/cli/commands/bench.ts": cli("parses and checks bench's flags; the timing itself is src/bench's, tested there"),
  "src/cli/commands/convert.ts": cli("reads, converts and writes; the conversion is tested in test/datasets"),
  "src/cli/handlers.ts": cli("maps each command to its module; every command runs through the command line there"),
  "src/cli/commands/reports.ts": { kind: "run", by: "test/cli/commands/experiment.test.ts", why: "renders the reports an experiment run writes" },
  "src/cli/heartbeat/entry.mjs": { kind: "run", by: "test/cli/heartbeat/start.test.ts", why: "the heartbeat thread's loader" },
  "src/cli/heartbeat/thread.ts": { kind: "run", by: "test/cli/heartbeat/start.test.ts", why: "the heartbeat thread itself" },
  "src/model/embedding/use-lite-worker.mjs": { kind: "run", by: "test/model/embedding/use-lite.test.ts", why: "the in-process encoder's thread" },
  "src/bench/encoder-reference-worker.mjs": { kind: "run", by: "test/bench/encoder.test.ts", why: "the plain JavaScript encoder the bench measures against" },
  "src/harness/runner/worker-entry.mjs": { kind: "run", by: "test/harness/runner/run.test.ts", why: "the trial worker's loader" },
  "src/harness/summary/summarise-worker.mjs": { kind: "run", by: "test/harness/summary/summarise-all.test.ts", why: "the statistics thread of summariseAll" },

  "src/shared/cache-file.ts": covered("opens, checks and refuses the cache files of both its users", "test/model/embedding/cache.test.ts", "test/harness/runner/token-cache.test.ts"),

  // Schemas: their rules are specified by the loaders that apply them (bad-input tables).
  "src/harness/answers/schema.ts": covered("validated by the answer-level run", "test/harness/answers/run.test.ts"),
  "src/harness/experiment/sweep-schema.ts": covered("sweep sections are parsed by it", "test/harness/experiment/sweep-points.test.ts"),
  "src/memory/vector/chunk.ts": covered("the chunks of a vector column, one and many, JS and wasm", "test/memory/vector/vector-column.test.ts"),
  "src/memory/ask-relevance.ts": covered("blocks sharing an ask's relevance equal blocks retrieved alone", "test/memory/retrieve.test.ts"),
  "src/report/markdown/sweep.ts": covered("the sweep's table, finding and figures in the reports", "test/report/evaluation.test.ts", "test/report/failure-analysis.test.ts"),
  "src/harness/experiment/schema.ts": covered("the experiment loader's errors", "test/harness/experiment/load.test.ts"),
  "src/harness/policy/schema.ts": covered("ablation patches are parsed by it", "test/harness/policy/ablations.test.ts"),
  "src/harness/results/schema.ts": covered("results are read through it", "test/harness/results/io.test.ts"),
  "src/harness/results/types.ts": covered("the results' types and their few constants", "test/harness/results/build.test.ts"),
  "src/harness/scenario/schema.ts": covered("the scenario loader's errors", "test/harness/scenario/load.test.ts"),
  "src/harness/scenario/variation.ts": covered("the seeds' variation, applied by the timeline", "test/harness/scenario/timeline.test.ts"),
  "src/memory/policy-schema.ts": covered("presets and preset files parse through it", "test/memory/presets.test.ts", "test/harness/policy/preset-file.test.ts"),
  "src/memory/types.ts": covered("types, KINDS and DEFAULT_IMPORTANCE, used by every memory test", "test/memory/store/store.test.ts"),

  // Parts of a tested unit.
  "src/bench/conversation-probe.ts": covered("the conversation rows of the bench", "test/bench/conversation-bench.test.ts"),
  "src/bench/grid.ts": covered("the bench's --grid row", "test/bench/run.test.ts"),
  "src/bench/report.ts": covered("the bench's table", "test/bench/run.test.ts"),
  "src/datasets/locomo/messages.ts": covered("the LoCoMo loader's errors", "test/datasets/locomo/load.test.ts"),
  "src/harness/answers/compare.ts": covered("check's comparison of replayed answers", "test/harness/answers/run.test.ts"),
  "src/harness/answers/io.ts": covered("reading and writing answer results", "test/harness/answers/run.test.ts"),
  "src/harness/answers/recordings.ts": covered("the answer section of EVALUATION.md", "test/report/markdown/answers.test.ts"),
  "src/harness/answers/replay-check.ts": covered("check's replay of the answer-level run", "test/harness/answers/run.test.ts", "test/cli/commands/record.test.ts"),
  "src/harness/answers/spec.ts": covered("the answer-level run's settings", "test/harness/answers/run.test.ts"),
  "src/harness/answers/summary.ts": covered("the answer section of EVALUATION.md", "test/report/markdown/answers.test.ts"),
  "src/harness/runner/code-version.ts": covered("a resumed run reuses only trials of the same code", "test/harness/runner/run.test.ts"),
  "src/harness/summary/align.ts": covered("pairs the baseline's and an ablation's values", "test/harness/summary/summarise.test.ts"),
  "src/harness/summary/designed-failures.ts": covered("the designed-failure claims of a summary", "test/harness/summary/summarise.test.ts"),
  "src/memory/build-section.ts": covered("one section of a block", "test/memory/retrieve.test.ts", "test/memory/index-property.test.ts"),
  "src/memory/relevance/index.ts": covered("the backend table", "test/memory/relevance/bm25.test.ts", "test/memory/relevance/words.test.ts"),
  "src/memory/vector/lanes.ts": covered("the plain-JS dot products the SIMD kernel must equal", "test/memory/vector/vector-column.test.ts"),
  "src/memory/vector/simd-dots.ts": covered("the SIMD kernel, checked against the plain-JS dot products", "test/memory/vector/vector-column.test.ts"),
  "src/memory/vector/simd-cosines.ts": covered("the SIMD cosine pass, checked against cosineOf", "test/memory/vector/vector-column.test.ts"),
  "src/model/classify.ts": covered("what a failed model call means to the user", "test/model/client.test.ts"),
  "src/model/errors.ts": covered("the model layer's one-line errors", "test/model/client.test.ts", "test/model/options.test.ts"),
  "src/model/recording-file.ts": covered("the recordings' file format", "test/model/recorder.test.ts"),
  "src/model/transport.ts": covered("the HTTP under the client", "test/model/client.test.ts"),
  "src/report/appendix.ts": covered("the appendix of EVALUATION.md", "test/report/evaluation.test.ts"),
  "src/report/charts/breakdown-chart.ts": covered("one chart of an experiment", "test/report/charts/experiment-charts.test.ts", "test/report/charts/layout.test.ts"),
  "src/report/charts/metrics-chart.ts": covered("one chart of an experiment", "test/report/charts/experiment-charts.test.ts", "test/report/charts/layout.test.ts"),
  "src/report/charts/rank-change-chart.ts": covered("one chart of an experiment", "test/report/charts/experiment-charts.test.ts", "test/report/charts/layout.test.ts"),
  "src/report/charts/curve-panels.ts": covered("the panels of the recall@k and evidence-age charts", "test/report/charts/recall-at-k-chart.test.ts", "test/report/charts/evidence-age-chart.test.ts"),
  "src/report/charts/panel-width.ts": covered("panel grids within the width limit", "test/report/charts/layout.test.ts"),
  "src/report/charts/fonts.ts": covered("the chart fonts", "test/report/charts/font-metrics.test.ts"),
  "src/report/charts/render.ts": covered("SVG and PNG rendering, and through a chart cache", "test/report/charts/experiment-charts.test.ts", "test/report/charts/layout.test.ts", "test/report/charts/chart-cache.test.ts"),
  "src/report/charts/text-measure.ts": covered("text widths from the font files", "test/report/charts/font-metrics.test.ts"),
  "src/report/charts/theme.ts": covered("the charts' shared look", "test/report/charts/layout.test.ts"),
  "src/report/html/bundles.ts": covered("the page's scripts", "test/report/html/browser.test.ts"),
  "src/report/html/client-script.ts": covered("the page's own script, run in a browser", "test/report/html/browser.test.ts"),
  "src/report/html/drill-down.ts": covered("the page's drill-down data", "test/report/html/reporter.test.ts", "test/report/html/browser.test.ts"),
  "src/report/html/format.ts": covered("numbers on the page", "test/report/html/reporter.test.ts"),
  "src/report/html/page.ts": covered("the page", "test/report/html/reporter.test.ts", "test/report/html/browser.test.ts"),
  "src/report/html/style.ts": covered("the page's style sheet", "test/report/html/browser.test.ts"),
  "src/report/html/summary-table.ts": covered("the page's summary tables", "test/report/html/reporter.test.ts"),
  "src/report/markdown/designed-failures.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/failure-analysis.test.ts"),
  "src/report/markdown/experiment.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/evaluation.test.ts"),
  "src/report/markdown/figure-markers.ts": covered("the figures FAILURE_ANALYSIS.md takes from results", "test/report/failure-analysis.test.ts"),
  "src/report/markdown/figures.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/failure-analysis.test.ts"),
  "src/report/markdown/manifest.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/evaluation.test.ts"),
  "src/report/markdown/rank-changes.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/evaluation.test.ts"),
  "src/report/markdown/setup.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/evaluation.test.ts"),
  "src/report/markdown/summary-tables.ts": covered("a markdown writer", "test/report/markdown/injection.test.ts", "test/report/evaluation.test.ts"),
  "src/report/paths.ts": covered("where reports are written", "test/report/evaluation.test.ts"),
  "src/shared/paths.ts": covered("the repository root, one constant", "test/harness/runner/run.test.ts"),
};

const mirror = (file: string) => file.replace(/^src\//, "test/").replace(/\.(ts|mjs)$/, ".test.ts");

const statementsOf = (file: string) =>
  ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.ES2022).statements;

const isTypeOnly = (s: ts.Statement) =>
  ts.isInterfaceDeclaration(s) ||
  ts.isTypeAliasDeclaration(s) ||
  (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true) ||
  (ts.isExportDeclaration(s) && s.isTypeOnly);

const isReExport = (s: ts.Statement) => ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined;

/** The src files a test reaches through its imports, its test helpers' and theirs. */
function reachedBy(test: string, graph: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const pending = [test];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const imports = file.startsWith("src/") ? (graph.get(file) ?? []) : testImports(file);
    pending.push(...imports);
  }
  return seen;
}

function testImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true)
    .importedFiles.map((ref) => ref.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => join(file, "..", specifier).split("\\").join("/").replace(/\.js$/, ".ts"))
    .filter((target) => existsSync(join(ROOT, target)));
}

describe("tests mirror src/ by path", () => {
  const sources = sourceFiles();

  it("every source file has its test at the mirrored path, or a reason in EXEMPT", () => {
    expect(sources.length).toBeGreaterThan(100);
    const missing = sources.filter((file) => !existsSync(join(ROOT, mirror(file))) && !(file in EXEMPT));
    expect(missing.map((file) => `${file}: no ${mirror(file)}`)).toEqual([]);
  });

  it("EXEMPT names only source files that exist and have no mirrored test", () => {
    const stale = Object.keys(EXEMPT).filter((file) => !sources.includes(file) || existsSync(join(ROOT, mirror(file))));
    expect(stale).toEqual([]);
  });

  it("a types-only file declares no values, and a barrel only re-exports", () => {
    const wrong = Object.entries(EXEMPT).flatMap(([file, exemption]) => {
      if (exemption.kind === "types-only" && !statementsOf(file).every(isTypeOnly)) return [`${file} is not types-only`];
      if (exemption.kind === "barrel" && !statementsOf(file).every((s) => isTypeOnly(s) || isReExport(s))) return [`${file} is not a barrel`];
      return [];
    });
    expect(wrong).toEqual([]);
  });

  it("each test named as covering a file reaches it through imports; each test named as running one exists", () => {
    const graph = importGraph();
    const wrong = Object.entries(EXEMPT).flatMap(([file, exemption]) => {
      if (exemption.kind === "run") return existsSync(join(ROOT, exemption.by)) ? [] : [`${file}: ${exemption.by} does not exist`];
      if (exemption.kind !== "covered") return [];
      return exemption.by.flatMap((test) => {
        if (!existsSync(join(ROOT, test))) return [`${file}: ${test} does not exist`];
        return reachedBy(test, graph).has(file) ? [] : [`${file}: ${test} does not reach it`];
      });
    });
    expect(wrong).toEqual([]);
  });

  it("every test file is named *.test.ts, and lives under test/", () => {
    const tests = filesUnder("test", (name) => name.endsWith(".test.ts"));
    expect(tests.length).toBeGreaterThan(100);
    expect(filesUnder("src", (name) => /\.(test|spec)\.[cm]?[jt]s$/.test(name))).toEqual([]);
  });
});
