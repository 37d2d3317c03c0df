import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Loading the Gemma tokenizer and running whole experiments takes seconds on a 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // CI reads the counts from the JSON report (see .ci/summary.mjs).
    reporters: ["default", ["json", { outputFile: ".recollect/vitest-report.json" }]],
  },
});
