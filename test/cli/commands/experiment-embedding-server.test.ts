import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliOutcome, commitSandbox, runCli, sandboxChanges, useSandbox } from "../sandbox.js";

/**
 * An experiment that ranks by a model on an embedding server no one runs: the server is found
 * missing mid-run (after the tokens are counted), so the run prints its progress and then one
 * line naming the server, exits 2, and writes no results.
 */
const NAME = "embedding-down";
const URL = "http://127.0.0.1:9/v1";
const box = useSandbox();
box.write(
  `experiments/${NAME}.yaml`,
  [
    `name: ${NAME}`,
    "description: embeddings from a server that is down",
    "scenarios: [../scenarios/per-kind-demo.yaml]",
    "allowOutside: true",
    "ablations: [full, relevance-only-embedding]",
    `embedding: { model: "openai:text-embedding-3-small", url: "${URL}" }`,
    "seeds: [1]",
  ].join("\n"),
);

let outcome: CliOutcome;
beforeAll(async () => {
  commitSandbox(box);
  outcome = await runCli(["experiment", `experiments/${NAME}.yaml`, "--workers", "1"], box.dir);
}, 120_000);

describe("recollect experiment with its embedding server down", () => {
  it("exits 2 with one line naming the server, after nothing but the run's progress", () => {
    expect(outcome.code, outcome.stderr).toBe(2);
    const lines = outcome.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(`recollect: no OpenAI-compatible server answers at ${URL}: start it, or check the embedding url`);
    for (const line of lines.slice(0, -1)) expect(line.startsWith(`${NAME}: `), line).toBe(true);
    expect(outcome.stdout).toBe("");
  });

  it("writes no results, and leaves only the journal it would resume from", () => {
    expect(existsSync(box.path(`results/${NAME}.json`))).toBe(false);
    const changes = sandboxChanges(box).split("\n").filter((l) => l !== "");
    for (const change of changes) expect(change, "git status after the run").toMatch(/^\?\? \.recollect\/journal\//);
  });
});
