/**
 * `npm run record` end to end: the command line's entry, in a sandbox folder, against the Ollama test
 * double. It writes the recording set, the graded answers and the reports there; a replay in the
 * same folder with the double stopped gives the same answers. The double's digest is not a real
 * model's, so the regenerated EVALUATION.md lists the recording and shows no accuracy.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAnswers } from "../../../src/harness/answers/replay-check.js";
import { readAnswers, stableAnswers } from "../../../src/harness/answers/io.js";
import { runAnswerEvaluation } from "../../../src/harness/answers/run.js";
import { ANSWER_RUN } from "../../../src/harness/answers/spec.js";
import { readRecordings } from "../../../src/model/recording-file.js";
import { doubleAnswer } from "../../harness/answers/double-answers.js";
import { DOUBLE_MODELS, startOllamaDouble, type OllamaDouble } from "../../model/ollama-test-double.js";
import { type CliOutcome, runCli, useSandbox } from "../sandbox.js";

const sandbox = useSandbox();
sandbox.write(
  ANSWER_RUN.experiment,
  [
    "name: core",
    "description: a small stand-in for the core experiment",
    "scenarios: [../scenarios/write-back-yesterday.yaml, ../scenarios/per-kind-demo.yaml]",
    "allowOutside: true",
    "ablations: [full, pooled]",
    "seeds: [1, 2, 3]",
    "variation: { jitter: 0.1, distractors: 2, shuffle: true, importanceNoise: 1 }",
  ].join("\n"),
);

let double: OllamaDouble;
let recorded: CliOutcome;

beforeAll(async () => {
  double = await startOllamaDouble({ answer: doubleAnswer });
  recorded = await runCli(["record", "--host", double.host, "--seeds", "2", "--timeout-ms", "20000"], sandbox.dir);
  await double.stop();
});
afterAll(() => double.stop());

describe("npm run record", () => {
  it("records every call, writes the graded answers and regenerates the reports", () => {
    expect(recorded.stderr.split("\n").filter((l) => l.startsWith("recollect:"))).toEqual([]);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/^answers: 12 trials, 18 graded answers from gemma4:e2b; recordings\/answers\.json holds \d+ calls; results\/answers\/core\.json written$/m);
    expect(recorded.stdout).toMatch(/^reports: wrote .*EVALUATION\.md/m);
    const entries = [...readRecordings(sandbox.path(ANSWER_RUN.recordings), { mustExist: true }).values()];
    const digest = DOUBLE_MODELS.find((m) => m.name === "gemma4:e2b")!.digest;
    expect(new Set(entries.map((e) => `${e.model.name} ${e.model.digest}`))).toEqual(new Set([`gemma4:e2b ${digest}`]));
    const results = readAnswers(sandbox.path(ANSWER_RUN.results))!;
    expect(results.seeds).toEqual([1, 2]);
    expect(results.manifest.recordings.calls).toBe(entries.length);
  });

  it("lists the recording in EVALUATION.md but shows no accuracy, since no real model made it", () => {
    const evaluation = readFileSync(sandbox.path("EVALUATION.md"), "utf8");
    const section = evaluation.slice(evaluation.indexOf("## Answer-level evaluation"));
    expect(section).toContain("`sha256:double-gemma4-e2b`");
    expect(section).toContain("None of these recordings was made with a real model");
    expect(section).not.toContain("Keys matched");
  });

  it("replays in the same folder with the server stopped, giving the same answers", async () => {
    const outcome = await runAnswerEvaluation({ root: sandbox.dir, mode: "replay" });
    if ("skipped" in outcome) throw new Error(outcome.skipped);
    expect(stableAnswers(outcome.results)).toBe(stableAnswers(readAnswers(sandbox.path(ANSWER_RUN.results))!));
    expect(await checkAnswers({ root: sandbox.dir })).toEqual([]);
  });

  it("fails fast with the server-down message when the server is stopped, leaving the recordings as they were", async () => {
    const before = readFileSync(sandbox.path(ANSWER_RUN.recordings), "utf8");
    const outcome = await runCli(["record", "--host", double.host], sandbox.dir);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(`recollect: no Ollama server at ${double.host}: start it with \`ollama serve\`, or use recorded calls\n`);
    expect(readFileSync(sandbox.path(ANSWER_RUN.recordings), "utf8")).toBe(before);
    expect(existsSync(sandbox.path("recordings/answers.json"))).toBe(true);
  });
});
