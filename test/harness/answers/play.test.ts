/**
 * One answer trial, with an in-process scripted model: importance is rated at write time,
 * reflection runs once the summed importance passes the threshold (and never without it), and
 * every ask is a chat turn, written back, whether or not it has keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGemmaTokenizer, type GemmaTokenizer } from "../../../src/memory/index.js";
import { loadExperiment } from "../../../src/harness/experiment/load.js";
import { playAnswerTrial } from "../../../src/harness/answers/play.js";
import { ANSWER_CONDITIONS } from "../../../src/harness/answers/spec.js";
import type { ChatRequest } from "../../../src/model/types.js";
import { OllamaClient } from "../../../src/model/client.js";
import { type ChatBody, startOllamaDouble } from "../../model/ollama-test-double.js";
import { scriptedClient } from "../../model/scripted-client.js";
import { useTempDir } from "../temp-files.js";
import { writeTinyExperiment } from "../tiny-experiment.js";
import { isRatingPrompt } from "./double-answers.js";

const temp = useTempDir("recollect-answer-trial-");
const experiment = await loadExperiment(writeTinyExperiment(temp));
const scenario = experiment.scenarios.find((s) => s.spec.name === "per-kind-demo")!.spec;
const policy = experiment.ablations.find((a) => a.name === "full")!.policy!;
const [withReflection, , withoutReflection] = ANSWER_CONDITIONS;

let tokenizer: GemmaTokenizer;
beforeAll(async () => {
  tokenizer = await loadGemmaTokenizer();
});

const lastText = (r: ChatRequest) => r.messages.at(-1)!.content;
const isQuestions = (r: ChatRequest) => lastText(r).includes("most salient high-level questions");
const isInsights = (r: ChatRequest) => lastText(r).includes("high-level insights");

function model() {
  return scriptedClient((request) => {
    if (isRatingPrompt(lastText(request))) return "Rating: 8";
    if (isQuestions(request)) return "1. Where is Ana travelling?\n2. What does Ana eat?";
    if (isInsights(request)) return "1. Ana is planning a trip to Lisbon (because of 1, 2)\n2. An uncited guess";
    return "Ana should book a quiet hotel for 120 euros, and eat vegetarian in Alfama.";
  });
}

const play = (condition: (typeof ANSWER_CONDITIONS)[number], client: ReturnType<typeof model>, reflectionThreshold: number) =>
  playAnswerTrial(
    { scenario, condition: condition!, policy, seed: 3, variation: experiment.spec.variation },
    { client, model: "m", tokenizer, importanceFallback: 5, reflectionThreshold },
  );

describe("playAnswerTrial", () => {
  it("rates each memory at write time, answers each ask and grades the ones with keys", async () => {
    const client = model();
    const trial = await play(withoutReflection, client, 150);
    const ratings = client.chats.filter((r) => isRatingPrompt(lastText(r)));
    expect(trial.importance).toEqual({ rated: ratings.length, fallbacks: 0 });
    // Scenario memories, the seed's distractors and the two written-back turns are all rated.
    const written = scenario.steps.flatMap((s) => s.remember ?? []).length + experiment.spec.variation.distractors + 2;
    expect(ratings).toHaveLength(written);
    expect(trial.asks.map((a) => [a.ask, a.score])).toEqual([
      ["which-hotel", 1],
      ["where-dinner", 1],
    ]);
    expect(client.chats.every((r) => r.options?.seed === 3)).toBe(true);
  });

  it("reflects once the summed rated importance reaches the threshold, storing insights that cite their evidence", async () => {
    const client = model();
    const trial = await play(withReflection, client, 40);
    expect(trial.reflections).toBeGreaterThan(0);
    expect(client.chats.filter(isQuestions)).toHaveLength(trial.reflections);
    expect(trial.insights.length).toBeGreaterThan(0);
    // Evidence is what was stored before: scenario memories, distractors, turns, or earlier insights.
    const known = new Set([...scenario.steps.flatMap((s) => s.remember ?? []).map((m) => m.id), "turn:which-hotel", "turn:where-dinner"]);
    for (const insight of trial.insights) {
      expect(insight.text).toBe("Ana is planning a trip to Lisbon");
      expect(insight.evidence.length).toBeGreaterThan(0);
      for (const id of insight.evidence) expect(known.has(id) || id.startsWith("distractor:"), id).toBe(true);
      known.add(insight.id);
    }
    // Each stored insight was rated too.
    const ratings = client.chats.filter((r) => isRatingPrompt(lastText(r))).length;
    expect(trial.importance.rated).toBe(ratings);
  });

  it("never reflects in the no-reflection condition, whatever the importance", async () => {
    const client = model();
    const trial = await play(withoutReflection, client, 1);
    expect(trial.reflections).toBe(0);
    expect(client.chats.some(isQuestions)).toBe(false);
  });

  it("falls back to the stated default when a rating reply holds no number", async () => {
    const client = scriptedClient((r) => (isRatingPrompt(lastText(r)) ? "Hard to say." : "I do not know."));
    const trial = await play(withoutReflection, client, 150);
    expect(trial.importance.fallbacks).toBe(trial.importance.rated);
    expect(trial.asks.every((a) => a.score === 0 && a.missing.length === a.keys.length)).toBe(true);
  });
});

describe("playAnswerTrial against the loopback Ollama test double", () => {
  const reply = (body: ChatBody) => {
    const last = body.messages.at(-1)!.content;
    if (isRatingPrompt(last)) return "Rating: 8";
    if (last.includes("most salient high-level questions")) return "1. Where is Ana travelling?";
    if (last.includes("high-level insights")) return "1. Ana is planning a trip to Lisbon (because of 1, 2)";
    return "A quiet hotel for 120 euros; vegetarian food in Alfama.";
  };
  const doubles: { stop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of doubles) await d.stop();
  });

  it("rates every memory over HTTP and writes the reflection's insights, the same path the chat takes", async () => {
    const double = await startOllamaDouble({ answer: reply });
    doubles.push(double);
    const trial = await playAnswerTrial(
      { scenario, condition: withReflection!, policy, seed: 3, variation: experiment.spec.variation },
      { client: new OllamaClient({ host: double.host }), model: "gemma4:e2b", tokenizer, importanceFallback: 5, reflectionThreshold: 40 },
    );
    const chats = double.requests.filter((r) => r.route === "chat").map((r) => (r.body as unknown as ChatBody).messages.at(-1)!.content);
    expect(trial.importance).toEqual({ rated: chats.filter(isRatingPrompt).length, fallbacks: 0 });
    expect(trial.reflections).toBeGreaterThan(0);
    expect(trial.insights.length).toBeGreaterThan(0);
    expect(trial.insights.every((i) => i.text === "Ana is planning a trip to Lisbon" && i.evidence.length > 0)).toBe(true);
  });
});
