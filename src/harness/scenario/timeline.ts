import { DEFAULT_IMPORTANCE, type NewMemory } from "../../memory/index.js";
import type { Variation } from "./variation.js";
import { createRng, type Rng } from "../stats/rng.js";
import type { AskSpec, DistractorSpec, MemorySpec, ScenarioSpec, TimeSpec } from "./schema.js";
import { DISTRACTOR_PREFIX, writeBackId } from "./validate.js";

/** The model id recorded for vectors written literally in a scenario file. */
export const SCENARIO_VECTOR_MODEL = "scenario-vectors";

export type TimelineEvent =
  | { type: "remember"; at: number; memories: NewMemory[] }
  | { type: "ask"; at: number; ask: AskSpec };

/**
 * A scenario played out for one seed: absolute times, the seed's distractors, order and noise.
 * It depends on the scenario and the seed only, never on the ablation, so every ablation of a
 * seed sees the same timeline and their differences can be paired.
 */
export function buildTimeline(scenario: ScenarioSpec, seed: number, variation: Variation): TimelineEvent[] {
  const rng = createRng(seed).fork(`timeline:${scenario.name}`);
  const streams = {
    jitter: rng.fork("jitter"),
    distractors: rng.fork("distractors"),
    shuffle: rng.fork("shuffle"),
    importance: rng.fork("importance"),
  };
  // Unrated memories get the midpoint; each kind of memory moves by its own declared noise.
  const noisy = (importance: number | undefined) =>
    importance === undefined
      ? withNoise(DEFAULT_IMPORTANCE, variation.unratedImportanceNoise, streams.importance)
      : withNoise(importance, variation.importanceNoise, streams.importance);

  const events: TimelineEvent[] = [];
  let now = scenario.start;
  for (const step of scenario.steps) {
    if (step.advance !== undefined) {
      const factor = 1 + (2 * streams.jitter.nextFloat() - 1) * variation.jitter;
      now += Math.round(step.advance * factor);
    } else if (step.remember) {
      const at = now;
      events.push({ type: "remember", at, memories: step.remember.map((m) => toNewMemory(scenario.scope, m, at, noisy)) });
    } else if (step.ask) {
      events.push({ type: "ask", at: now, ask: step.ask });
    }
  }

  insertDistractors(events, scenario, variation.distractors, streams.distractors, noisy);
  return variation.shuffle ? shuffleBatches(events, streams.shuffle) : events;
}

function withNoise(importance: number, noise: number, rng: Rng): number {
  if (noise === 0) return importance;
  return Math.min(10, Math.max(1, importance + rng.nextInt(2 * noise + 1) - noise));
}

function resolveTime(spec: TimeSpec | undefined, now: number): number | undefined {
  if (spec === undefined) return undefined;
  return spec.at ?? now + (spec.offset ?? 0);
}

function toNewMemory(
  scope: string,
  m: MemorySpec | (DistractorSpec & { id: string; corrects?: string }),
  now: number,
  noisy: (importance: number | undefined) => number,
): NewMemory {
  return {
    id: m.id,
    scope,
    kind: m.kind,
    text: m.text,
    createdAt: now,
    occurredAt: resolveTime(m.occurred, now) ?? (m.kind === "episodic" ? now : null),
    lastAccessedAt: resolveTime(m.lastAccessed, now) ?? now,
    importance: noisy(m.importance),
    supersedes: m.corrects ?? null,
    expiresAt: resolveTime(m.expires, now) ?? null,
    source: m.source ?? null,
    embedding: m.embedding ? { model: SCENARIO_VECTOR_MODEL, vector: m.embedding } : null,
  };
}

/** Distractors join randomly chosen writes that happen before the last ask. */
function insertDistractors(
  events: TimelineEvent[],
  scenario: ScenarioSpec,
  count: number,
  rng: Rng,
  noisy: (importance: number | undefined) => number,
): void {
  const lastAsk = events.map((e) => e.type).lastIndexOf("ask");
  const slots = events.flatMap((e, i) => (e.type === "remember" && i < lastAsk ? [e] : []));
  if (count === 0 || slots.length === 0 || scenario.pool.length === 0) return;
  const chosen = rng.shuffle(scenario.pool.map((_, i) => i)).slice(0, count).sort((a, b) => a - b);
  for (const poolIndex of chosen) {
    const slot = slots[rng.nextInt(slots.length)];
    const memory = toNewMemory(scenario.scope, { ...scenario.pool[poolIndex], id: `${DISTRACTOR_PREFIX}${poolIndex}` }, slot.at, noisy);
    slot.memories.splice(rng.nextInt(slot.memories.length + 1), 0, memory);
  }
}

/** Shuffles memories written together and runs of asks at the same moment; time order stays. */
function shuffleBatches(events: TimelineEvent[], rng: Rng): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  let run: TimelineEvent[] = [];
  const flush = () => {
    out.push(...(run.length > 1 && !refersToOwnTurns(run) ? rng.shuffle(run) : run));
    run = [];
  };
  for (const event of events) {
    if (event.type === "remember") {
      flush();
      // A correction must follow what it corrects, so a batch holding both keeps its order.
      const ids = new Set(event.memories.map((m) => m.id));
      const selfReferencing = event.memories.some((m) => m.supersedes && ids.has(m.supersedes));
      out.push(selfReferencing ? event : { ...event, memories: rng.shuffle(event.memories) });
    } else {
      if (run.length > 0 && run[0].at !== event.at) flush();
      run.push(event);
    }
  }
  flush();
  return out;
}

/** An ask that expects (or requires, or marks stale) the write-back of an ask beside it must follow it. */
function refersToOwnTurns(run: TimelineEvent[]): boolean {
  const turns = new Set(run.flatMap((e) => (e.type === "ask" ? [writeBackId(e.ask.id)] : [])));
  return run.some(
    (e) => e.type === "ask" && [...e.ask.expect, ...(e.ask.required ?? []), ...e.ask.stale].some((id) => turns.has(id)),
  );
}
