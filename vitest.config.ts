import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { globSync } from "tinyglobby";
import { defineConfig } from "vitest/config";
import mutationConfig from "./vitest.mutation.config.ts";

/*
 * Three projects, so that no test file runs twice.
 *
 * - "mutation-suite" runs exactly as vitest.mutation.config.ts defines it (every file in one
 *   process, without isolation), so a test that leaks state into a later file fails `npm test` as
 *   it would fail a mutation run. vitest runs it as a group of its own, after the others.
 * - "isolated" holds the files that replace a module with `vi.mock`: a mock takes effect only in a
 *   process that has not loaded the module yet, so each of these files gets a fresh one.
 * - "shared" holds every other file. Its workers keep their loaded modules from file to file
 *   (loading the module graph again for each of 200 files cost a minute of the suite), so these
 *   tests, like the mutation suite's, leave nothing behind: fixtures are built afresh per call,
 *   and spies and listeners are restored.
 */
const mutation = mutationConfig.test!;
const mutationFiles = globSync(mutation.include!, { ignore: mutation.exclude! });
// Found by their text, so that a new file that mocks a module is isolated without being listed.
const ISOLATED = globSync("test/**/*.test.ts", { ignore: mutationFiles }).filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, "utf8")));

const common = {
  // Loading the Gemma tokenizer and running whole experiments takes seconds on a 2-core machine.
  testTimeout: 180_000,
  hookTimeout: 180_000,
  pool: "forks",
  // vitest's default leaves a core free (one worker on two cores); the suite is the only work here.
  maxWorkers: availableParallelism(),
} as const;

export default defineConfig({
  test: {
    // CI reads the counts from the JSON report (see .ci/summary.mjs).
    reporters: ["default", ["json", { outputFile: ".recollect/vitest-report.json" }]],
    projects: [
      {
        test: {
          ...common,
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...mutationFiles, ...ISOLATED],
          isolate: false,
        },
      },
      { test: { ...common, name: "isolated", include: ISOLATED } },
      { test: { ...common, ...mutation, name: "mutation-suite", sequence: { groupOrder: 1 } } },
    ],
  },
});
