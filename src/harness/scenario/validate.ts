import { fileError } from "../../shared/errors.js";
import { CLOCK_MAX, CLOCK_MIN } from "../duration.js";
import type { ScenarioSpec, TimeSpec } from "./schema.js";

/** The id a write-back of ask `askId` gets, so later asks can expect it. */
export function writeBackId(askId: string): string {
  return `turn:${askId}`;
}

/** Sampled distractors get ids `distractor:<pool index>` (see timeline.ts). */
export const DISTRACTOR_PREFIX = "distractor:";

/**
 * Checks what a schema cannot: ids are unique, every id a step refers to was written earlier
 * in the timeline (a memory, or the write-back of an earlier ask), no memory is corrected twice,
 * and every time stays on the virtual clock (years 1 to 9999) as the file declares it, before any
 * seed's jitter.
 */
export function checkTimeline(file: string, scenario: ScenarioSpec): void {
  const known = new Set<string>();
  const askIds = new Set<string>();
  /** Corrected id → where its correction is: the store refuses a second one, so it is refused here, before any trial. */
  const corrected = new Map<string, { id: string; path: string }>();
  const fail = (path: string, problem: string) => {
    throw fileError(file, `at ${path}: ${problem}`);
  };
  let clock = scenario.start;
  const onClock = (path: string, spec: TimeSpec | undefined) => {
    const at = spec === undefined ? clock : (spec.at ?? clock + spec.offset!);
    if (!(at >= CLOCK_MIN && at <= CLOCK_MAX)) fail(path, `this time falls outside the virtual clock, which runs from year 1 to 9999`);
  };
  onClock("start", undefined);
  // One scope holds vectors of one size: the first one written (or asked with) sets it.
  let dim: { size: number; path: string } | undefined;
  const oneSize = (path: string, vector: readonly number[] | undefined) => {
    if (vector === undefined) return;
    dim ??= { size: vector.length, path };
    if (vector.length !== dim.size) fail(path, `an embedding of ${vector.length} numbers, but ${dim.path} has ${dim.size}; one scenario's vectors share one size`);
  };
  scenario.pool.forEach((memory, j) => oneSize(`pool[${j}].embedding`, memory.embedding));
  scenario.steps.forEach((step, i) => {
    if (step.advance !== undefined) {
      clock += step.advance;
      onClock(`steps[${i}].advance`, undefined);
    }
    step.remember?.forEach((memory, j) => {
      const path = `steps[${i}].remember[${j}]`;
      for (const field of ["occurred", "lastAccessed", "expires"] as const) onClock(`${path}.${field}`, memory[field]);
      oneSize(`${path}.embedding`, memory.embedding);
      if (known.has(memory.id)) fail(`${path}.id`, `duplicate memory id "${memory.id}"`);
      if (memory.id.startsWith(DISTRACTOR_PREFIX)) fail(`${path}.id`, `ids starting with "${DISTRACTOR_PREFIX}" are kept for sampled distractors`);
      if (memory.corrects !== undefined && !known.has(memory.corrects)) {
        fail(`${path}.corrects`, `"${memory.corrects}" is not a memory written before this step`);
      }
      if (memory.corrects !== undefined) {
        const earlier = corrected.get(memory.corrects);
        if (earlier !== undefined) {
          fail(
            `${path}.corrects`,
            `"${memory.corrects}" is already corrected by "${earlier.id}" at ${earlier.path}; a memory is corrected once, so correct "${earlier.id}" instead`,
          );
        }
        corrected.set(memory.corrects, { id: memory.id, path });
      }
      known.add(memory.id);
    });
    if (step.ask) {
      const ask = step.ask;
      oneSize(`steps[${i}].ask.embedding`, ask.embedding);
      if (askIds.has(ask.id)) fail(`steps[${i}].ask.id`, `duplicate ask id "${ask.id}"`);
      if (known.has(writeBackId(ask.id))) {
        fail(`steps[${i}].ask.id`, `this ask's write-back would be stored as "${writeBackId(ask.id)}", which is already a memory id`);
      }
      for (const field of ["expect", "required", "stale"] as const) {
        (ask[field] ?? []).forEach((id, j) => {
          if (!known.has(id)) {
            fail(`steps[${i}].ask.${field}[${j}]`, `"${id}" is not a memory written before this ask`);
          }
        });
      }
      askIds.add(ask.id);
      known.add(writeBackId(ask.id));
    }
  });
}

/** Whether a scenario writes any vector of its own (it is then ranked by its own vectors alone). */
export function hasLiteralVectors(spec: ScenarioSpec): boolean {
  return (
    spec.steps.some((step) => (step.remember ?? []).some((m) => m.embedding !== undefined) || step.ask?.embedding !== undefined) ||
    spec.pool.some((m) => m.embedding !== undefined)
  );
}
