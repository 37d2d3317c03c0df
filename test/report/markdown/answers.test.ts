/**
 * EVALUATION.md's answer-level section, from files alone: it says which recordings exist and
 * which model made them, and shows answer accuracy only for results graded from a real model's
 * recordings (the fixtures here use a made-up model name, never a real model's).
 */
import { describe, expect, it } from "vitest";
import { answerAccuracy } from "../../../src/harness/answers/summary.js";
import { serialiseAnswers } from "../../../src/harness/answers/io.js";
import { sha256 } from "../../../src/harness/answers/recordings.js";
import { ANSWER_FORMAT, type AnswerResults, type AnswerTrial } from "../../../src/harness/answers/schema.js";
import { ANSWER_CONDITIONS, ANSWER_RUN } from "../../../src/harness/answers/spec.js";
import { prettyJson } from "../../../src/model/canonical-json.js";
import { chatKey } from "../../../src/model/recorder.js";
import { recordingKey } from "../../../src/model/recording-file.js";
import { answersSection, createAnswersSection } from "../../../src/report/markdown/answers.js";
import { formatInterval } from "../../../src/report/markdown/format.js";
import { reporters } from "../../../src/report/render.js";
import { renderEvaluation } from "../../../src/report/evaluation.js";

const REAL_DIGEST = "a".repeat(64);
const MODEL = "fixture-model:1b";

function recordingText(digest: string | null, times: string[]): string {
  const entries = Object.fromEntries(
    times.map((recordedAt, i) => {
      const request = chatKey({ model: MODEL, messages: [{ role: "user", content: `question ${i}` }], options: { seed: i } });
      return [recordingKey(request), { request, response: { content: `answer ${i}` }, model: { name: MODEL, digest }, recordedAt }];
    }),
  );
  return prettyJson({ version: 1, entries });
}

function trial(condition: string, seed: number, scores: boolean[][], fallbacks: number): AnswerTrial {
  return {
    scenario: "s",
    condition,
    seed,
    importance: { rated: 10, fallbacks },
    reflections: 0,
    insights: [],
    asks: scores.map((matched, i) => ({
      ask: `q${i}`,
      question: `question ${i}?`,
      answer: "an answer",
      keys: matched.map((_, k) => `key${k}`),
      matched,
      missing: matched.flatMap((m, k) => (m ? [] : [`key${k}`])),
      score: matched.filter(Boolean).length / matched.length,
      allMatched: matched.every(Boolean),
      kept: [],
    })),
  };
}

function results(recordings: string): AnswerResults {
  const trials = [
    trial("full", 1, [[true, true], [true, false]], 1),
    trial("full", 2, [[true, true], [false, false]], 0),
    trial("pooled", 1, [[true, false], [false, false]], 2),
    trial("pooled", 2, [[true, true], [false, false]], 0),
    trial("no-reflection", 1, [[true, true], [true, false]], 1),
    trial("no-reflection", 2, [[true, true], [false, false]], 0),
  ];
  return {
    format: ANSWER_FORMAT,
    experiment: { name: "core", file: ANSWER_RUN.experiment },
    model: MODEL,
    seeds: [1, 2],
    conditions: ANSWER_CONDITIONS.map((c) => ({ ...c })),
    reflectionThreshold: 150,
    importanceFallback: 5,
    manifest: {
      gitCommit: "abc",
      gitDirty: false,
      models: [{ name: MODEL, digest: REAL_DIGEST }],
      recordings: { file: ANSWER_RUN.recordings, sha256: sha256(recordings), calls: 2 },
      experimentHash: "e",
      tokenizerSha256: "t",
    },
    importance: { rated: 60, fallbacks: 4 },
    trials,
  };
}

const render = (files: Record<string, string>) => answersSection({ readExisting: (path) => files[path] });

describe("the answer-level section", () => {
  it("says plainly that no recordings exist and shows no accuracy", () => {
    const text = render({});
    expect(text.startsWith("## Answer-level evaluation\n")).toBe(true);
    expect(text).toContain("No recordings exist: `recordings/answers.json` has not been recorded, so no answer was produced by any model.");
    expect(text).toContain("No answer accuracy is shown.");
    expect(text).not.toContain("Keys matched");
  });

  it("lists a recording set made without a real model's digest, and shows no accuracy even beside results", () => {
    const recordings = recordingText("sha256:double-gemma4-e2b", ["2025-01-02T00:00:00.000Z", "2025-01-01T00:00:00.000Z"]);
    const text = render({ [ANSWER_RUN.recordings]: recordings, [ANSWER_RUN.results]: serialiseAnswers(results(recordings)) });
    expect(text).toMatch(/\| `recordings\/answers\.json` \| fixture-model:1b \| `sha256:double-gemma4-e2b` \| +2 \| 2025-01-01T00:00:00\.000Z – 2025-01-02T00:00:00\.000Z \|/);
    expect(text).toContain("None of these recordings was made with a real model");
    expect(text).toContain("No answer accuracy is shown.");
    expect(text).not.toContain("Keys matched");
  });

  it("says why a recording set cannot be read, naming the file and the path inside it, and shows no accuracy", () => {
    expect(render({ [ANSWER_RUN.recordings]: "{oops" })).toMatch(/The recordings cannot be read: recordings\/answers\.json: not valid JSON \(.+\)\. No answer accuracy is shown\./);
    const text = render({ [ANSWER_RUN.recordings]: JSON.stringify({ version: 1, entries: { k: { request: { kind: "chat" } } } }) });
    expect(text).toContain("The recordings cannot be read: recordings/answers.json: at entries.k.request.model: ");
    expect(text).not.toContain("Keys matched");
  });

  it("shows accuracy per condition with bootstrap intervals, and the importance fallbacks, for a real model's recordings", () => {
    const recordings = recordingText(REAL_DIGEST, ["2025-01-01T00:00:00.000Z", "2025-01-01T00:05:00.000Z"]);
    const graded = results(recordings);
    const text = render({ [ANSWER_RUN.recordings]: recordings, [ANSWER_RUN.results]: serialiseAnswers(graded) });
    expect(text).not.toContain("No answer accuracy");
    for (const row of answerAccuracy(graded)) {
      const line = text.split("\n").find((l) => l.startsWith(`| \`${row.condition}\``))!;
      expect(line).toContain(formatInterval(row.keys));
      expect(line).toContain(formatInterval(row.full));
    }
    const full = answerAccuracy(graded).find((r) => r.condition === "full")!;
    expect(full.keys.mean).toBeCloseTo((1 + 0.5 + 1 + 0) / 4);
    expect(full.full.mean).toBeCloseTo(2 / 4);
    // Shares in [0, 1] get the bounded interval: it stays inside [0, 1] and is never a single point.
    for (const row of answerAccuracy(graded)) {
      for (const share of [row.keys, row.full]) {
        expect(share.lo).toBeGreaterThanOrEqual(0);
        expect(share.hi).toBeLessThanOrEqual(1);
        expect(share.hi).toBeGreaterThan(share.lo);
      }
    }
    expect(text).toContain("the model rated 60 memories; 4 replies held no number and fell back to the default 5.");
    expect(text).toContain("Reflection never ran");
  });

  it("shows no accuracy when the results were graded from another version of the recordings", () => {
    const recordings = recordingText(REAL_DIGEST, ["2025-01-01T00:00:00.000Z"]);
    const stale = results(recordingText(REAL_DIGEST, ["2024-12-01T00:00:00.000Z"]));
    const text = render({ [ANSWER_RUN.recordings]: recordings, [ANSWER_RUN.results]: serialiseAnswers(stale) });
    expect(text).toContain("was graded from another version of `recordings/answers.json`");
    expect(text).not.toContain("Keys matched");
  });

  it("says when results are missing beside a real model's recordings", () => {
    const text = createAnswersSection()({ readExisting: (p) => (p === ANSWER_RUN.recordings ? recordingText(REAL_DIGEST, ["2025-01-01T00:00:00.000Z"]) : undefined) });
    expect(text).toContain("`results/answers/core.json` does not exist");
    expect(text).toContain("No answer accuracy is shown.");
  });

  it("is one of the sections EVALUATION.md is built with", async () => {
    const context = { results: [], summaries: [], readExisting: () => undefined };
    const [file] = await reporters().shared[0]!.render(context);
    expect(String(file!.content)).toBe(renderEvaluation(context, { sections: [answersSection] }));
  });
});
