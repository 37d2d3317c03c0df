import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultUseLiteThreads } from "../../../src/model/embedding/index.js";
import { repoPath, useTempDir } from "../../harness/temp-files.js";
import { type CliOutcome, commitSandbox, runCliProcess, useSandbox } from "../sandbox.js";

/**
 * An experiment that ranks by the in-process encoder, on a machine where its WebAssembly backend
 * cannot start (every instantiation fails, as when memory cannot be had): each encoder thread is
 * started twice, then the run prints one line naming the encoder and the reason, exits 2, and
 * writes no results.
 */
const NAME = "encoder-down";
const box = useSandbox();
box.write(
  `experiments/${NAME}.yaml`,
  [
    `name: ${NAME}`,
    "description: embeddings from an in-process encoder that cannot start",
    "scenarios: [../scenarios/per-kind-demo.yaml]",
    "allowOutside: true",
    "ablations: [full, relevance-only-embedding]",
    "seeds: [1]",
  ].join("\n"),
);
const threads = useTempDir().write("threads", "");

let outcome: CliOutcome;
beforeAll(async () => {
  commitSandbox(box);
  // Spawned: the module that breaks WebAssembly is preloaded into the command line's process (NODE_OPTIONS).
  outcome = await runCliProcess(["experiment", `experiments/${NAME}.yaml`, "--workers", "1"], box.dir, {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(repoPath("test/fixtures/encoder/wasm-trouble.mjs")).href}`, WASM_TROUBLE: "fail", WASM_THREADS: threads },
  });
}, 120_000);

describe("recollect experiment when the in-process encoder cannot start", () => {
  it("exits 2 with one line naming the encoder and why, after nothing but the run's progress", () => {
    expect(outcome.code, outcome.stderr).toBe(2);
    const lines = outcome.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(/^recollect: the in-process encoder use-lite could not start, twice: TensorFlow\.js's WebAssembly backend did not start \(.*could not allocate memory.*\): run again on a less busy machine, or embed with a server \(an ollama: or openai: model\)$/);
    for (const line of lines.slice(0, -1)) expect(line.startsWith(`${NAME}: `), line).toBe(true);
    expect(outcome.stdout).toBe("");
  });

  it("tried each encoder thread twice", () => {
    const started = new Set(readFileSync(threads, "utf8").split("\n").filter((l) => l !== ""));
    expect(started.size).toBe(2 * defaultUseLiteThreads());
  });

  it("writes no results", () => {
    expect(existsSync(box.path(`results/${NAME}.json`))).toBe(false);
  });
});
