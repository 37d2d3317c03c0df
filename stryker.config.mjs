/*
 * Mutation testing of the memory system, the metrics and the statistics: `npm run mutate`.
 * Run on demand, not in CI: a whole run takes hours on a shared 2-core machine. The mutants shown
 * to be equivalent, each with its reason, are listed in stryker/equivalent-mutants.mjs.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  // quick-check.ts refuses damaged memory stores (test/memory/store/identify.test.ts kills its mutants).
  mutate: ["src/memory/**/*.ts", "src/shared/quick-check.ts", "src/harness/metrics.ts", "src/harness/stats/**/*.ts"],
  // Each mutant runs only the tests that reached it in the first, instrumented run.
  coverageAnalysis: "perTest",
  // A mutant of a module-level constant would run every test again; they are left out of the score.
  ignoreStatic: true,
  // One test worker per core; the Stryker process itself mostly waits.
  concurrency: 2,
  // A loaded, shared machine makes some runs slow; a mutant that loops still times out.
  timeoutMS: 10_000,
  // The first run, instrumented and in one thread, runs every test once: minutes here.
  dryRunTimeoutMinutes: 40,
  // Reruns test only the mutants whose code or tests changed since the last run.
  incremental: true,
  incrementalFile: "reports/mutation/incremental.json",
  reporters: ["clear-text", "progress-append-only", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // The bar (90%) is applied by stryker/score.mjs, which sets the listed equivalent mutants apart.
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: ".stryker-tmp",
};
