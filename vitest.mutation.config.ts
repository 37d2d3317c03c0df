import { defineConfig } from "vitest/config";

/*
 * The tests that `npm run mutate` runs against each mutant: those of the mutated code
 * (src/memory, src/harness/metrics.ts, src/harness/stats). The rest of the suite runs whole
 * experiments and would cost minutes per mutant without testing these files more closely.
 * The statistics' calibration test is left out too: it simulates hundreds of data sets (seconds a
 * run) to check error rates, coverage and power within bands as wide as its simulation count
 * allows, while the exact-value tests of each method pin the same code. The store's multi-process tests are left out as well: their writers are child
 * processes, which run the store without the mutant under test, so they cannot kill it.
 * `npm test` runs this suite as one project of vitest.config.ts, with these settings.
 */
export default defineConfig({
  test: {
    include: ["test/memory/**/*.test.ts", "test/harness/metrics.test.ts", "test/harness/stats/**/*.test.ts"],
    exclude: ["test/harness/stats/calibration.test.ts", "test/memory/store/store-processes.test.ts"],
    // Each mutant reruns its tests; sharing loaded modules between test files spares loading the
    // Gemma tokenizer again for every file. The tests open their own stores and share no state:
    // one worker runs every file in one process, so a test that leaks state into a later file
    // fails this suite rather than a mutation run hours later.
    isolate: false,
    // As Stryker's runner runs them: in one worker, one test at a time, whatever the number of
    // cores (npm test runs this suite so, as a project of vitest.config.ts). Stryker's worker is a
    // thread; here it is the default process, so the tests that need the main thread (chdir) run too.
    maxWorkers: 1,
    maxConcurrency: 1,
    // The first run counts which tests reach each mutant, statement by statement: many times slower.
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
});
