import { turnText } from "../../memory/index.js";
import type { ScenarioSpec } from "../scenario/schema.js";

/**
 * Every text a trial of `scenario` gives its embedding model: each memory and distractor it may
 * write, each question, and each question written back when the trial writes back. Listing them
 * up front lets a run embed each distinct text once per model, before any trial runs.
 */
export function embeddedTexts(scenario: ScenarioSpec, writeBack: boolean): string[] {
  const texts = new Set<string>();
  for (const step of scenario.steps) {
    for (const memory of step.remember ?? []) texts.add(memory.text);
    if (step.ask) {
      texts.add(step.ask.query);
      if (writeBack) texts.add(turnText({ user: step.ask.query }));
    }
  }
  for (const distractor of scenario.pool) texts.add(distractor.text);
  return [...texts];
}
