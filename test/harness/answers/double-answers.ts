/**
 * How the Ollama test double answers the answer-level run's prompts, so tests can predict what a
 * run must record: ratings are a number (or, for memories about a sister, no number at all), and
 * an answer repeats the memory block it was given, so its grade depends on what retrieval kept.
 */
import type { ChatBody } from "../../model/ollama-test-double.js";

export const RATING_PROMPT_START = "On the scale of 1 to 10";

export function isRatingPrompt(content: string): boolean {
  return content.startsWith(RATING_PROMPT_START);
}

/** Memories whose rating reply holds no number. */
export const UNRATEABLE = /sister/;

export function doubleAnswer(body: ChatBody): string {
  const last = body.messages.at(-1)?.content ?? "";
  if (isRatingPrompt(last)) return UNRATEABLE.test(last) ? "I would rather not say." : `Rating: ${3 + (last.length % 5)}`;
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  return `From memory (seed ${body.options?.seed ?? "none"}): ${system.slice(system.indexOf("\n\n") + 2)}`;
}
