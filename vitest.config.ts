import { availableParallelism } from "node:os";
import { globSync } from "tinyglobby";
import { defineConfig } from "vitest/config";
import mutationConfig from "./vitest.mutation.config.ts";

/*
 * Two projects, so that no test file runs twice. The mutation configuration's suite runs exactly
 * as vitest.mutation.config.ts defines it (every file in one process, without isolation), so a
 * test that leaks state into a later file fails `npm test` as it would fail a mutation run. Every
 * other file runs isolated, on all workers. vitest runs the single-process project as a group of
 * its own, after the other.
 */
const mutation = mutationConfig.test!;
const mutationFiles = globSync(mutation.include!, { ignore: mutation.exclude! });

const shared = {
  // Loading the Gemma tokenizer and running whole experiments takes seconds on a 2-core machine.
  testTimeout: 180_000,
  hookTimeout: 180_000,
  pool: "forks",
} as const;

export default defineConfig({
  test: {
    // CI reads the counts from the JSON report (see .ci/summary.mjs).
    reporters: ["default", ["json", { outputFile: ".recollect/vitest-report.json" }]],
    projects: [
      {
        test: {
          ...shared,
          name: "isolated",
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...mutationFiles],
          // vitest's default leaves a core free (one worker on two cores); the suite is the only work here.
          maxWorkers: availableParallelism(),
        },
      },
      { test: { ...shared, ...mutation, name: "mutation-suite", sequence: { groupOrder: 1 } } },
    ],
  },
});
