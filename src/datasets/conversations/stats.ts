import { z } from "zod";

/**
 * What an import read, built and repaired. It is recorded in the results (as `importStats`) and
 * rendered as the import table of the report, so a reader sees every repair the data needed.
 */

/**
 * Each repair the importer makes, in the order the import table lists them. A repair marked
 * `whenNeeded` came after results were first recorded: it is recorded, and listed, only when the
 * data needed it, so results of data that never did (LoCoMo's converter splits its own evidence
 * strings) read the same as before it existed.
 */
export const REPAIRS = [
  { key: "sessionsOutOfOrder", what: "sessions dated before a session listed earlier", done: "played in date order, file order on ties" },
  { key: "emptyTurns", what: "empty turns", done: "skipped" },
  { key: "emptyObservations", what: "empty observations", done: "skipped" },
  { key: "unknownObservationSources", what: "observation sources that name no imported turn", done: "dropped from the observation's sources" },
  { key: "malformedEvidence", what: "evidence that is not an id (such as several ids in one string)", done: "dropped", whenNeeded: true },
  { key: "unknownEvidence", what: "evidence ids that name no imported turn", done: "dropped" },
  { key: "duplicateEvidence", what: "evidence ids listed twice in one question", done: "kept once" },
  { key: "questionsWithoutEvidence", what: "questions left with no evidence", done: "not asked" },
  { key: "askedAtTooEarly", what: "askedAt earlier than the ask protocol allows", done: "asked at the earliest time it allows" },
  { key: "conversationsWithoutQuestions", what: "conversations left with no question", done: "not run" },
] as const;

export type RepairKey = (typeof REPAIRS)[number]["key"];
const repairKeys = REPAIRS.map((r) => r.key) as [RepairKey, ...RepairKey[]];
const whenNeeded = (repair: (typeof REPAIRS)[number]) => "whenNeeded" in repair && repair.whenNeeded;

/** How many repaired items are quoted per repair. */
export const REPAIR_EXAMPLES = 5;

/** The category label of questions that have none. */
export const NO_CATEGORY = "(none)";

const count = z.number().int().min(0);

export const importStatsSchema = z.object({
  /** Conversations read from the file. */
  conversations: count,
  /** Conversations that became scenarios (those left with a question to ask). */
  scenarios: count,
  sessions: count,
  /** Turns imported as episodic memories. */
  turns: count,
  /** Observations imported as semantic memories (0 when the experiment leaves them out). */
  observations: count,
  /** Questions of the chosen categories. */
  questions: count,
  /** Questions asked: those of the chosen categories that kept some evidence. */
  asked: count,
  /** Questions of categories the experiment did not choose. */
  notChosen: count,
  /** Questions and asks per category label, for the chosen categories. */
  categories: z.record(z.string(), z.object({ questions: count, asked: count })),
  repairs: z.object(Object.fromEntries(REPAIRS.map((r) => [r.key, whenNeeded(r) ? count.optional() : count])) as Record<RepairKey, z.ZodOptional<typeof count>>),
  /** Conversations with at least one session out of date order. */
  conversationsOutOfOrder: count,
  /** The first few repaired items of each repair, such as `conv-3 q2: "s9:1"`. */
  examples: z.partialRecord(z.enum(repairKeys), z.array(z.string())),
});
export type ImportStats = z.output<typeof importStatsSchema>;

export function emptyImportStats(): ImportStats {
  return {
    conversations: 0,
    scenarios: 0,
    sessions: 0,
    turns: 0,
    observations: 0,
    questions: 0,
    asked: 0,
    notChosen: 0,
    categories: {},
    repairs: Object.fromEntries(REPAIRS.filter((r) => !whenNeeded(r)).map((r) => [r.key, 0])),
    conversationsOutOfOrder: 0,
    examples: {},
  };
}

/** Counts `n` repairs of one kind, quoting the first few. */
export function countRepair(stats: ImportStats, key: RepairKey, example: string, n = 1): void {
  stats.repairs[key] = (stats.repairs[key] ?? 0) + n;
  const examples = (stats.examples[key] ??= []);
  if (examples.length < REPAIR_EXAMPLES) examples.push(example);
}

/** "repaired empty turns: 2 (skipped); askedAt before the last session: 1 (asked after the last session)", or "no repairs". */
export function repairSummary(stats: ImportStats): string {
  const done = REPAIRS.filter((r) => repairCount(stats, r.key) > 0).map((r) => `${r.what}: ${repairCount(stats, r.key)} (${r.done})`);
  return done.length === 0 ? "no repairs" : `repaired ${done.join("; ")}`;
}

export function repairCount(stats: ImportStats, key: RepairKey): number {
  return stats.repairs[key] ?? 0;
}

/** The repairs the import table lists: every one that is always checked, and the others that the data needed. */
export function listedRepairs(stats: ImportStats): (typeof REPAIRS)[number][] {
  return REPAIRS.filter((r) => !whenNeeded(r) || repairCount(stats, r.key) > 0);
}
