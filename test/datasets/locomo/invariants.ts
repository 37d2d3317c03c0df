import { expect } from "vitest";
import type { AskSpec, MemorySpec, ScenarioSpec } from "../../../src/harness/scenario/schema.js";

const ID = /^[A-Za-z0-9_.:\-/]+$/;

export function memoriesOf(scenario: ScenarioSpec): MemorySpec[] {
  const memories: MemorySpec[] = [];
  for (const step of scenario.steps) {
    if ("remember" in step && step.remember) memories.push(...[step.remember].flat());
  }
  return memories;
}

export function asksOf(scenario: ScenarioSpec): AskSpec[] {
  const asks: AskSpec[] = [];
  for (const step of scenario.steps) if ("ask" in step && step.ask) asks.push(step.ask);
  return asks;
}

/**
 * What every imported scenario must satisfy for the runner to play it: valid and unique ids, a
 * clock that never runs backwards, gold ids that name remembered turns, asks after every memory.
 */
export function expectPlayable(scenario: ScenarioSpec): void {
  expect(scenario.name).toMatch(ID);
  const memories = memoriesOf(scenario);
  const ids = memories.map((m) => m.id);
  for (const id of ids) expect(id).toMatch(ID);
  expect(new Set(ids).size).toBe(ids.length);

  for (const step of scenario.steps) {
    if ("advance" in step) expect(step.advance).toBeGreaterThanOrEqual(0);
    if ("remember" in step && Array.isArray(step.remember)) expect(step.remember.length).toBeGreaterThan(0);
  }
  for (const memory of memories) {
    expect(memory.text.length).toBeGreaterThan(0);
    // LoCoMo has no ratings: every memory is unrated, and the timeline gives it the midpoint.
    expect(memory.importance).toBeUndefined();
  }

  const turnIds = new Set(memories.filter((m) => m.kind === "episodic").map((m) => m.id));
  const asks = asksOf(scenario);
  expect(new Set(asks.map((a) => a.id)).size).toBe(asks.length);
  for (const ask of asks) {
    for (const id of ask.expect) expect(turnIds.has(id), `${scenario.name} ${ask.id} expects ${id}`).toBe(true);
    expect(ask.required).toEqual(ask.expect);
    expect(ask.category).toMatch(/^[1-5] [a-z-]+$/);
  }
  const firstAsk = scenario.steps.findIndex((step) => "ask" in step);
  if (firstAsk >= 0) expect(scenario.steps.slice(firstAsk).every((step) => "ask" in step)).toBe(true);
}
