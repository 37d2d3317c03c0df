/**
 * LLM-rated importance at write time, with the poignancy prompt of Generative Agents (Park et
 * al., 2023). Replies are parsed leniently; a reply with no rating falls back to a stated default
 * and says so, so a run can count its fallbacks instead of hiding them.
 */
import { DEFAULT_IMPORTANCE } from "../memory/index.js";
import type { ModelClient, SamplingOptions } from "../model/types.js";

export const DEFAULT_IMPORTANCE_FALLBACK = DEFAULT_IMPORTANCE;

export interface ImportanceRating {
  /** 1–10. */
  importance: number;
  /** True when the reply held no rating and the default was used. */
  fallback: boolean;
  /** The model's reply, for inspection. */
  raw: string;
}

export interface RateOptions {
  model: string;
  options?: SamplingOptions;
  think?: boolean;
  fallback?: number;
}

export function importancePrompt(memory: string): string {
  return (
    "On the scale of 1 to 10, where 1 is purely mundane (e.g., brushing teeth, making bed) and 10 is " +
    "extremely poignant (e.g., a break up, college acceptance), rate the likely poignancy of the " +
    `following piece of memory.\nMemory: ${memory}\nRating: <fill in>`
  );
}

export async function rateImportance(client: ModelClient, memory: string, rate: RateOptions): Promise<ImportanceRating> {
  const reply = await client.chat({
    model: rate.model,
    messages: [{ role: "user", content: importancePrompt(memory) }],
    ...(rate.options ? { options: rate.options } : {}),
    ...(rate.think === undefined ? {} : { think: rate.think }),
  });
  const parsed = parseImportance(reply.content);
  if (parsed === null) return { importance: rate.fallback ?? DEFAULT_IMPORTANCE_FALLBACK, fallback: true, raw: reply.content };
  return { importance: parsed, fallback: false, raw: reply.content };
}

const WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
};
const NUMBER = String.raw`(\d+(?:\.\d+)?|${Object.keys(WORDS).join("|")})`;

/**
 * The rating in a reply, or null. Looks first for an explicit rating ("Rating: 7", "7/10",
 * "seven out of 10"), then for the first number from 1 to 10 written in digits anywhere, ignoring the scale itself
 * ("1 to 10") when the model echoes it. Decimals round to the nearest whole rating.
 */
export function parseImportance(reply: string): number | null {
  const text = reply.toLowerCase().replace(/\*+/g, "");
  const explicit = [
    new RegExp(String.raw`\b(?:rating|rate|score|poignancy)\b[^0-9a-z]{0,4}(?:is|of|:)?\s*${NUMBER}\b`),
    new RegExp(String.raw`(?<![\d.])${NUMBER}\s*(?:/|out of)\s*10\b`),
  ];
  for (const pattern of explicit) {
    const value = toRating(pattern.exec(text)?.[1]);
    if (value !== null) return value;
  }
  const withoutScale = text.replace(/\b1\s*(?:to|-|–|and)\s*10\b/g, " ");
  // Digits only here: number words ("no one", "one of") are too common in prose to trust alone.
  for (const match of withoutScale.matchAll(/(?<![\d.])(\d+(?:\.\d+)?)(?![\d.]*\d)/g)) {
    const value = toRating(match[1]);
    if (value !== null) return value;
  }
  return null;
}

function toRating(token: string | undefined): number | null {
  if (token === undefined) return null;
  const value = WORDS[token] ?? Math.round(Number(token));
  return Number.isFinite(value) && value >= 1 && value <= 10 ? value : null;
}
