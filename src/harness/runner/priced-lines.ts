import { renderLine, turnText } from "../../memory/index.js";
import type { ScenarioSpec } from "../scenario/schema.js";

/**
 * Every line a trial of `scenario` asks the store to price: each memory and distractor it may
 * write, and each question written back when the policy writes back. The store prices a memory
 * as the line it occupies in a block (renderLine), and a write-back as the turn's text. Listing
 * them up front lets a whole experiment count each distinct line once, before any trial runs.
 */
export function pricedLines(scenario: ScenarioSpec, writeBack: boolean): string[] {
  const lines = new Set<string>();
  for (const step of scenario.steps) {
    for (const memory of step.remember ?? []) lines.add(renderLine(memory.text));
    if (step.ask && writeBack) lines.add(renderLine(turnText({ user: step.ask.query })));
  }
  for (const distractor of scenario.pool) lines.add(renderLine(distractor.text));
  return [...lines];
}
