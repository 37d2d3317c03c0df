import { defineConfig } from "vitest/config";

/*
 * The tests that `npm run mutate` runs against each mutant: those of the mutated code
 * (src/memory, src/harness/metrics.ts, src/harness/stats). The rest of the suite runs whole
 * experiments and would cost minutes per mutant without testing these files more closely.
 * The statistics' calibration test is left out too: it simulates thousands of datasets (about
 * 40 s a run) to check error rates, while the exact-value tests of each method pin the same code.
 */
export default defineConfig({
  test: {
    include: ["test/memory/**/*.test.ts", "test/harness/metrics.test.ts", "test/harness/stats/**/*.test.ts"],
    exclude: ["test/harness/stats/calibration.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
