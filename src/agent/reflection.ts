/**
 * Reflection as in Generative Agents (Park et al., 2023): once the summed importance of new
 * memories passes a threshold, ask for the most salient high-level questions about the recent
 * memories, retrieve evidence for each, and ask for insights that cite that evidence. Each
 * insight becomes a semantic memory whose source links to its evidence ids. The model, retrieval
 * and storage are all passed in, so the harness can run it on replayed calls.
 */
import { DEFAULT_IMPORTANCE, type NewMemory } from "../memory/index.js";
import { parseInsights, parseQuestions } from "./reflection-parse.js";
import type { ModelClient, SamplingOptions } from "../model/types.js";

/** The Generative Agents code reflects once new importance adds up to 150. */
export const REFLECTION_THRESHOLD = 150;

/** A memory as reflection sees it. */
export interface Evidence {
  id: string;
  text: string;
}

export interface ReflectionDeps {
  client: ModelClient;
  /** Evidence for one question, best first (the memory system's retrieval, bound to a scope). */
  retrieve: (question: string) => Promise<readonly Evidence[]> | readonly Evidence[];
  /** Stores one insight and returns its id. */
  remember: (memory: NewMemory) => Promise<{ id: string }> | { id: string };
  /** Importance of an insight; DEFAULT_IMPORTANCE when absent (e.g. pass LLM-rated importance). */
  rate?: (text: string) => Promise<number> | number;
}

export interface ReflectionInput {
  scope: string;
  now: number;
  /** The memories to ask questions about, e.g. the latest 100. */
  recent: readonly Evidence[];
  model: string;
  options?: SamplingOptions;
  think?: boolean;
  /** How many questions to ask for (3 in Generative Agents). */
  questions?: number;
  /** How many insights to ask for per question (5 in Generative Agents). */
  insightsPerQuestion?: number;
}

export interface Insight {
  id: string;
  text: string;
  question: string;
  /** Ids of the memories the insight cites. */
  evidence: string[];
}

export interface ReflectionResult {
  questions: string[];
  insights: Insight[];
  /** Insights parsed but not stored: no valid evidence number, or a repeat of an earlier one. */
  dropped: number;
}

/** Summed importance of memories created after `since` (the last reflection). */
export function importanceSince(memories: readonly { importance: number; createdAt: number }[], since: number): number {
  return memories.reduce((sum, m) => (m.createdAt > since ? sum + m.importance : sum), 0);
}

export function reflectionDue(accumulated: number, threshold = REFLECTION_THRESHOLD): boolean {
  return accumulated >= threshold;
}

export function questionsPrompt(statements: readonly Evidence[], count: number): string {
  return (
    `${numbered(statements)}\n\nGiven only the information above, what are ${count} most salient ` +
    "high-level questions we can answer about the subjects in the statements? " +
    "Write one question per line."
  );
}

export function insightsPrompt(statements: readonly Evidence[], count: number): string {
  return (
    `Input:\n${numbered(statements)}\n\nWhat ${count} high-level insights can you infer from the above ` +
    "statements? (example format: insight (because of 1, 5, 3))\n1."
  );
}

/** How an insight memory's source begins; the evidence ids follow. */
export const INSIGHT_SOURCE = "reflection:";

/** "reflection:<id>,<id>": the provenance an insight memory carries. */
function reflectionSource(evidence: readonly string[]): string {
  return `${INSIGHT_SOURCE}${evidence.join(",")}`;
}

export async function reflect(deps: ReflectionDeps, input: ReflectionInput): Promise<ReflectionResult> {
  const questionCount = input.questions ?? 3;
  const perQuestion = input.insightsPerQuestion ?? 5;
  if (input.recent.length === 0) return { questions: [], insights: [], dropped: 0 };

  const questions = parseQuestions(await ask(deps.client, input, questionsPrompt(input.recent, questionCount)), questionCount);
  const insights: Insight[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const question of questions) {
    const evidence = [...(await deps.retrieve(question))];
    if (evidence.length === 0) continue;
    for (const parsed of parseInsights(await ask(deps.client, input, insightsPrompt(evidence, perQuestion)))) {
      const ids = [...new Set(parsed.evidence.filter((n) => n >= 1 && n <= evidence.length).map((n) => evidence[n - 1]!.id))];
      const key = parsed.text.toLowerCase();
      if (ids.length === 0 || seen.has(key)) {
        dropped++;
        continue;
      }
      seen.add(key);
      const importance = deps.rate ? await deps.rate(parsed.text) : DEFAULT_IMPORTANCE;
      const stored = await deps.remember({
        scope: input.scope,
        kind: "semantic",
        text: parsed.text,
        createdAt: input.now,
        importance,
        source: reflectionSource(ids),
      });
      insights.push({ id: stored.id, text: parsed.text, question, evidence: ids });
    }
  }
  return { questions, insights, dropped };
}

async function ask(client: ModelClient, input: ReflectionInput, prompt: string): Promise<string> {
  const reply = await client.chat({
    model: input.model,
    messages: [{ role: "user", content: prompt }],
    ...(input.options ? { options: input.options } : {}),
    ...(input.think === undefined ? {} : { think: input.think }),
  });
  return reply.content;
}

function numbered(statements: readonly Evidence[]): string {
  return statements.map((s, i) => `${i + 1}. ${s.text.replace(/\s+/g, " ").trim()}`).join("\n");
}
