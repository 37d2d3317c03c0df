/**
 * One answer trial: a (scenario, condition, seed) played through the real memory system, as the
 * runner plays it (buildTimeline, a fresh store, remember, retrieve, write back), with the model in
 * the loop, written through RatedMemory as the chat writes: each memory is rated by the model at
 * write time, reflection runs past the threshold (when the condition has it), each ask is a
 * chat turn (the chat loop the CLI uses: retrieve, inject the block, answer, write back); asks
 * with answer keys are graded.
 */
import { openStore } from "../../memory/index.js";
import type { TokenCounter } from "../../memory/index.js";
import type { RetrievalPolicy } from "../../memory/index.js";
import { usesEmbedding } from "../../memory/index.js";
import { gradeAnswer } from "../../model/grade.js";
import { RatedMemory } from "../../agent/rated-memory.js";
import { REFLECTION_THRESHOLD } from "../../agent/reflection.js";
import type { ModelClient } from "../../model/types.js";
import { userError } from "../../shared/errors.js";
import type { Variation } from "../scenario/variation.js";
import type { ScenarioSpec } from "../scenario/schema.js";
import { buildTimeline } from "../scenario/timeline.js";
import { writeBackId } from "../scenario/validate.js";
import type { AnswerAsk, AnswerTrial } from "./schema.js";
import type { AnswerCondition } from "./spec.js";

export interface AnswerTrialInput {
  scenario: ScenarioSpec;
  condition: AnswerCondition;
  policy: RetrievalPolicy;
  /** The timeline's seed, and the model's sampling seed. */
  seed: number;
  variation: Variation;
}

export interface AnswerTrialDeps {
  client: ModelClient;
  model: string;
  tokenizer: TokenCounter;
  /** Used when a rating reply holds no number. */
  importanceFallback: number;
  reflectionThreshold?: number;
}

export async function playAnswerTrial(input: AnswerTrialInput, deps: AnswerTrialDeps): Promise<AnswerTrial> {
  const { scenario, policy, seed } = input;
  if (usesEmbedding(policy)) {
    // Scenario vectors are written in the files, not made by a model the chat loop could call.
    throw userError(`condition "${input.condition.name}" ranks by embedding, which the answer-level run does not support`);
  }
  const store = openStore(":memory:", { tokenizer: deps.tokenizer });
  const memory = new RatedMemory({
    client: deps.client,
    store,
    scope: scenario.scope,
    policy,
    model: deps.model,
    options: { seed },
    importanceFallback: deps.importanceFallback,
    ...(input.condition.reflection ? { reflectionThreshold: deps.reflectionThreshold ?? REFLECTION_THRESHOLD } : {}),
  });
  const asks: AnswerAsk[] = [];
  try {
    for (const event of buildTimeline(scenario, seed, input.variation)) {
      if (event.type === "remember") {
        await memory.remember(event.memories, event.at);
        continue;
      }
      const { ask, at } = event;
      const turn = await memory.turn({ user: ask.query, id: writeBackId(ask.id) }, at);
      if (ask.answers.length === 0) continue;
      const grade = gradeAnswer(turn.answer, ask.answers);
      asks.push({
        ask: ask.id,
        question: ask.query,
        answer: turn.answer,
        keys: ask.answers,
        matched: grade.matched,
        missing: grade.missing as AnswerAsk["missing"],
        score: grade.score,
        allMatched: grade.allMatched,
        kept: turn.block.sections.flatMap((s) => s.kept),
      });
    }
  } finally {
    store.close();
  }
  // Listed in the scenario's order, whatever order this seed asked them in.
  const order = new Map(scenario.steps.flatMap((step) => (step.ask ? [step.ask.id] : [])).map((id, i) => [id, i]));
  asks.sort((a, b) => (order.get(a.ask) ?? 0) - (order.get(b.ask) ?? 0));
  return {
    scenario: scenario.name,
    condition: input.condition.name,
    seed,
    importance: { ...memory.importance },
    reflections: memory.reflections,
    insights: memory.insights.map(({ id, text, evidence }) => ({ id, text, evidence })),
    asks,
  };
}
