import type { AnswerResults } from "./schema.js";
import { stableAnswers } from "./io.js";

const MAX_SHOWN = 20;

/**
 * What differs between recorded answer results and a fresh replay: each (scenario, condition,
 * seed, ask) whose answer or grade changed, or a note when only other fields differ. Empty when
 * they match apart from the run's own fields.
 */
export function compareAnswers(recorded: AnswerResults, fresh: AnswerResults): string[] {
  if (stableAnswers(recorded) === stableAnswers(fresh)) return [];
  const key = (t: { scenario: string; condition: string; seed: number }, ask: string) => `${t.scenario} / ${t.condition} / seed ${t.seed} / ${ask}`;
  const before = new Map(recorded.trials.flatMap((t) => t.asks.map((a) => [key(t, a.ask), a] as const)));
  const after = new Map(fresh.trials.flatMap((t) => t.asks.map((a) => [key(t, a.ask), a] as const)));
  const problems: string[] = [];
  for (const [k, a] of after) {
    const b = before.get(k);
    if (!b) problems.push(`answers: ${k}: not in the recorded results`);
    else if (b.answer !== a.answer || b.score !== a.score) problems.push(`answers: ${k}: score ${b.score} → ${a.score}`);
  }
  for (const k of before.keys()) if (!after.has(k)) problems.push(`answers: ${k}: recorded but not produced by the replay`);
  if (problems.length === 0) problems.push("answers: the results differ outside the graded answers (manifest, counts or settings)");
  return problems.length > MAX_SHOWN ? [...problems.slice(0, MAX_SHOWN), `answers: … and ${problems.length - MAX_SHOWN} more`] : problems;
}
