/**
 * The answer-level run end to end in process: recorded against the Ollama test double into a
 * temporary folder, then replayed with the double stopped. Nothing is written to the repository.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAnswers } from "../../../src/harness/answers/replay-check.js";
import { readAnswers, stableAnswers, writeAnswers } from "../../../src/harness/answers/io.js";
import { runAnswerEvaluation } from "../../../src/harness/answers/run.js";
import type { AnswerResults } from "../../../src/harness/answers/schema.js";
import { ANSWER_CONDITIONS, type AnswerRunSpec } from "../../../src/harness/answers/spec.js";
import { gradeAnswer } from "../../../src/model/grade.js";
import { OllamaClient } from "../../../src/model/client.js";
import { readRecordings } from "../../../src/model/recording-file.js";
import { DOUBLE_MODELS, startOllamaDouble, type OllamaDouble } from "../../model/ollama-test-double.js";
import { useTempDir } from "../temp-files.js";
import { writeTinyExperiment } from "../tiny-experiment.js";
import { doubleAnswer, isRatingPrompt, UNRATEABLE } from "./double-answers.js";

const temp = useTempDir("recollect-answers-");
const SEEDS = [1, 2];
const spec: AnswerRunSpec = {
  experiment: writeTinyExperiment(temp, { seeds: [1, 2, 3] }),
  recordings: temp.path("recordings/answers.json"),
  results: temp.path("results/answers/tiny.json"),
  seeds: SEEDS.length,
  conditions: ANSWER_CONDITIONS,
};
const MODEL = "gemma4:e2b";

let double: OllamaDouble;
let recorded: AnswerResults;
let dropped: number;

beforeAll(async () => {
  double = await startOllamaDouble({ answer: doubleAnswer });
  const live = new OllamaClient({ host: double.host });
  let clock = 0;
  const outcome = await runAnswerEvaluation({
    root: temp.dir,
    spec,
    mode: "record",
    live,
    model: MODEL,
    timestamp: () => new Date(Date.UTC(2025, 0, 1) + 1000 * clock++).toISOString(),
  });
  if ("skipped" in outcome) throw new Error(outcome.skipped);
  recorded = outcome.results;
  dropped = outcome.droppedRecordings;
  writeAnswers(spec.results, recorded);
  await double.stop();
});
afterAll(() => double.stop());

const chats = () => double.requests.filter((r) => r.route === "chat").map((r) => r.body as { messages: { content: string }[]; options?: { seed?: number } });

describe("recording the answer-level run", () => {
  it("plays every scenario with answer keys under every condition and seed", () => {
    // stream-example has no answer keys, so it is left out.
    const scenarios = ["write-back-yesterday", "per-kind-demo"];
    const expected = scenarios.flatMap((scenario) => ANSWER_CONDITIONS.flatMap((c) => SEEDS.map((seed) => `${scenario}/${c.name}/${seed}`)));
    expect(recorded.trials.map((t) => `${t.scenario}/${t.condition}/${t.seed}`)).toEqual(expected);
    expect(recorded.seeds).toEqual(SEEDS);
    expect(recorded.model).toBe(MODEL);
  });

  it("keeps only the asks with keys, graded against their keys", () => {
    for (const trial of recorded.trials) {
      expect(trial.asks.map((a) => a.ask)).toEqual(trial.scenario === "per-kind-demo" ? ["which-hotel", "where-dinner"] : ["yesterday"]);
      for (const ask of trial.asks) {
        const grade = gradeAnswer(ask.answer, ask.keys);
        expect({ matched: ask.matched, score: ask.score, allMatched: ask.allMatched }).toEqual({ matched: grade.matched, score: grade.score, allMatched: grade.allMatched });
        // The double repeats the block, so the answer says which seed sampled it.
        expect(ask.answer).toContain(`(seed ${trial.seed})`);
      }
    }
  });

  it("answers from the block: a key matches exactly when the block holds it", () => {
    const yesterday = recorded.trials.filter((t) => t.scenario === "write-back-yesterday").flatMap((t) => t.asks);
    // The first turn ("flights to Oslo") is written back, so the next day's block can hold it.
    for (const ask of yesterday) expect(ask.matched[0]).toBe(ask.kept.includes("turn:flights"));
    expect(yesterday.some((a) => a.allMatched)).toBe(true);
  });

  it("sends the trial's seed as the model's sampling seed on every call", () => {
    const seeds = new Set(chats().map((c) => c.options?.seed));
    expect([...seeds].sort()).toEqual(SEEDS);
  });

  it("counts every rating whose reply held no number as a fallback", () => {
    const ratings = chats().filter((c) => isRatingPrompt(c.messages.at(-1)!.content));
    const unrateable = ratings.filter((c) => UNRATEABLE.test(c.messages.at(-1)!.content)).length;
    expect(unrateable).toBeGreaterThan(0);
    expect(recorded.importance).toEqual({ rated: ratings.length, fallbacks: unrateable });
    expect(recorded.trials.reduce((sum, t) => sum + t.importance.fallbacks, 0)).toBe(unrateable);
  });

  it("names the model and digest from the recording entries, and the recording set's hash", () => {
    const digest = DOUBLE_MODELS.find((m) => m.name === MODEL)!.digest;
    expect(recorded.manifest.models).toEqual([{ name: MODEL, digest }]);
    const entries = readRecordings(spec.recordings, { mustExist: true });
    expect(recorded.manifest.recordings.calls).toBe(entries.size);
    expect(recorded.manifest.recordings.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Conditions that build the same block make the same calls, so the set holds fewer than were made.
    expect(entries.size).toBeLessThan(chats().length);
    expect(dropped).toBe(0);
  });

  it("runs no reflection in scenarios whose rated importance stays under the threshold", () => {
    for (const trial of recorded.trials) expect(trial.reflections).toBe(0);
  });
});

describe("replaying the recorded run", () => {
  it("gives the same results with the server stopped, and the offline check passes", async () => {
    const before = double.requests.length;
    const outcome = await runAnswerEvaluation({ root: temp.dir, spec, mode: "replay" });
    if ("skipped" in outcome) throw new Error(outcome.skipped);
    expect(stableAnswers(outcome.results)).toBe(stableAnswers(recorded));
    expect(double.requests.length).toBe(before);
    expect(await checkAnswers({ root: temp.dir, spec })).toEqual([]);
  });

  it("reports an answer whose recorded grade no longer matches the replay", async () => {
    const edited = readAnswers(spec.results)!;
    const ask = edited.trials[0]!.asks[0]!;
    ask.score = ask.score === 1 ? 0 : 1;
    writeAnswers(spec.results, edited);
    try {
      const problems = await checkAnswers({ root: temp.dir, spec });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^answers: write-back-yesterday \/ full \/ seed 1 \/ yesterday: score /);
    } finally {
      writeAnswers(spec.results, recorded);
    }
  });

  it("is skipped when no recording set exists, and then has nothing to check", async () => {
    const absent = { ...spec, recordings: temp.path("recordings/none.json"), results: temp.path("results/answers/none.json") };
    const outcome = await runAnswerEvaluation({ root: temp.dir, spec: absent, mode: "replay" });
    expect(outcome).toEqual({ skipped: expect.stringContaining("does not exist: record it with `npm run record`") });
    expect(await checkAnswers({ root: temp.dir, spec: absent })).toEqual([]);
    expect(existsSync(absent.results)).toBe(false);
  });

  it("fails the check when results exist without their recordings", async () => {
    const orphan = { ...spec, recordings: temp.path("recordings/gone.json") };
    expect(await checkAnswers({ root: temp.dir, spec: orphan })).toEqual([
      expect.stringMatching(/exists but .*gone\.json does not; re-record both/),
    ]);
  });

  it("re-recording drops the calls the run no longer makes", async () => {
    const copy = temp.path("recordings/rerecord.json");
    const text = readFileSync(spec.recordings, "utf8");
    const again = await startOllamaDouble({ answer: doubleAnswer });
    try {
      temp.write("recordings/rerecord.json", text);
      const outcome = await runAnswerEvaluation({
        root: temp.dir,
        spec: { ...spec, recordings: copy, seeds: 1 },
        mode: "record",
        live: new OllamaClient({ host: again.host }),
        model: MODEL,
        timestamp: () => "2025-02-01T00:00:00.000Z",
      });
      if ("skipped" in outcome) throw new Error(outcome.skipped);
      expect(outcome.droppedRecordings).toBeGreaterThan(0);
      const left = [...readRecordings(copy, { mustExist: true }).values()];
      expect(new Set(left.map((e) => e.request.options.seed))).toEqual(new Set([1]));
    } finally {
      await again.stop();
      rmSync(copy, { force: true });
    }
  });
});
