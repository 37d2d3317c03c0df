import type { AskSpec, MemorySpec, ScenarioSpec, StepSpec } from "../../harness/scenario/schema.js";
import { askTime, type ProtocolSettings } from "./ask-time.js";
import { type Conversation, ID_PATTERN, ID_RULE, parseIsoTime, type Question, type Session } from "./schema.js";
import { countRepair, type ImportStats, NO_CATEGORY } from "./stats.js";

/**
 * The one way a conversation becomes a scenario, for every dataset: its sessions played in date
 * order on the virtual clock (each turn an episodic memory at its session's date, from its
 * speaker; each observation a semantic memory linked to its source turns), then its questions
 * asked at the times the protocol gives, their gold memories the evidence turns. Whatever real
 * data gets wrong and can be repaired is repaired here and counted in the stats.
 */

export interface ScenarioOptions {
  /** Import observations as semantic memories; default true. */
  observations?: boolean;
  /** Ask only questions of these categories; default every question. */
  categories?: readonly string[];
  /** When questions are asked; default "end" with seed 1. */
  protocol?: ProtocolSettings;
  /** Appended to each scenario's description, such as the dataset's source and licence. */
  credit?: string;
}

interface DatedSession {
  session: Session;
  time: number;
}

type Event = { time: number; session: DatedSession } | { time: number; ask: AskSpec };

/** Where a conversation was read ("talks.jsonl:3"), and the list that every repaired case goes to in full, one line each. */
export interface Notices {
  where: string;
  lines: string[];
}

/**
 * Returns the scenario, or undefined when no question is left to ask (counted as a repair). Stats
 * quote a few cases of each repair; evidence that is not an id is also listed in full on `notices`,
 * since each case is a fault in the file that its author will want to fix.
 */
export function conversationToScenario(conversation: Conversation, options: ScenarioOptions, stats: ImportStats, notices?: Notices): ScenarioSpec | undefined {
  // Repairs are quoted by conversation id, which is unique in a file.
  const where = conversation.id;
  const withObservations = options.observations ?? true;
  stats.conversations += 1;
  const sessions = inDateOrder(conversation, stats, where);
  const turnIds = importedTurnIds(sessions, stats, where);
  const lastSession = sessions[sessions.length - 1].time;
  const turnTime = new Map(sessions.flatMap(({ session, time }) => session.turns.map((turn) => [turn.id, time] as const)));
  const protocol = options.protocol ?? { protocol: "end", seed: 1 };

  const events: Event[] = sessions.map((session) => ({ time: session.time, session }));
  let asked = 0;
  for (const [index, question] of conversation.questions.entries()) {
    const ask = askFor(question, turnIds, options, stats, where, (e, id) =>
      notices?.lines.push(`${notices.where}: at questions[${index}].evidence[${e}]: ${JSON.stringify(id)} is not an id (${ID_RULE}); dropped from the evidence of question ${question.id}`),
    );
    if (ask === undefined) continue;
    const newestEvidence = Math.max(...ask.expect.map((id) => turnTime.get(id)!));
    const time = askTime(question, { lastSession, newestEvidence, conversation: conversation.id }, protocol);
    if (time.clamped) countRepair(stats, "askedAtTooEarly", `${where} ${question.id}: ${question.askedAt}`);
    events.push({ time: time.at, ask });
    asked += 1;
  }
  if (asked === 0) {
    countRepair(stats, "conversationsWithoutQuestions", where);
    return undefined;
  }
  // Stable: sessions keep their order, and a question asked at a session's date follows it.
  events.sort((a, b) => a.time - b.time || Number("ask" in a) - Number("ask" in b));

  const start = sessions[0].time;
  let clock = start;
  const steps: StepSpec[] = [];
  for (const event of events) {
    if (event.time > clock) steps.push({ advance: event.time - clock });
    clock = Math.max(clock, event.time);
    if ("ask" in event) {
      steps.push({ ask: event.ask });
      continue;
    }
    const turns = event.session.session.turns.filter((turn) => turnIds.has(turn.id)).map((turn) => turnMemory(turn, event.time));
    stats.turns += turns.length;
    if (turns.length > 0) steps.push({ remember: turns });
    if (!withObservations) continue;
    const observations = event.session.session.observations.flatMap((observation) =>
      observationMemory(observation, turnIds, stats, where),
    );
    stats.observations += observations.length;
    if (observations.length > 0) steps.push({ remember: observations });
  }
  stats.scenarios += 1;
  return {
    name: conversation.id,
    targets: [],
    description: describe(conversation, sessions, asked, { ...options, observations: withObservations }),
    scope: conversation.id,
    start,
    pool: [],
    steps,
  };
}

/** Sessions sorted by date, file order on ties; each one dated before an earlier-listed one is counted. */
function inDateOrder(conversation: Conversation, stats: ImportStats, where: string): DatedSession[] {
  const sessions = conversation.sessions.map((session) => ({ session, time: parseIsoTime(session.date) }));
  let latest = -Infinity;
  let outOfOrder = 0;
  for (const { session, time } of sessions) {
    if (time < latest) {
      outOfOrder += 1;
      countRepair(stats, "sessionsOutOfOrder", `${where} ${session.id}: ${session.date}`);
    }
    latest = Math.max(latest, time);
  }
  stats.sessions += sessions.length;
  if (outOfOrder > 0) stats.conversationsOutOfOrder += 1;
  return sessions.sort((a, b) => a.time - b.time);
}

/** Ids of the turns that become memories: all but the empty ones, which are counted. */
function importedTurnIds(sessions: DatedSession[], stats: ImportStats, where: string): Set<string> {
  const ids = new Set<string>();
  for (const { session } of sessions) {
    for (const turn of session.turns) {
      if (turn.text.trim() === "") countRepair(stats, "emptyTurns", `${where} ${turn.id}`);
      else ids.add(turn.id);
    }
  }
  return ids;
}

function turnMemory(turn: Session["turns"][number], time: number): MemorySpec {
  return {
    id: turn.id,
    kind: "episodic",
    text: `${turn.speaker}: ${turn.text.trim()}`,
    // No importance: the data has no ratings, and an unrated memory gets the midpoint, unperturbed.
    occurred: { at: time },
    source: turn.id,
  };
}

function observationMemory(
  observation: Session["observations"][number],
  turnIds: ReadonlySet<string>,
  stats: ImportStats,
  where: string,
): MemorySpec[] {
  if (observation.text.trim() === "") {
    countRepair(stats, "emptyObservations", `${where} ${observation.id}`);
    return [];
  }
  const sources = observation.source.filter((id) => {
    if (turnIds.has(id)) return true;
    countRepair(stats, "unknownObservationSources", `${where} ${observation.id}: "${id}"`);
    return false;
  });
  const memory: MemorySpec = {
    id: observation.id,
    kind: "semantic",
    text: observation.text.trim(),
  };
  // Listed comma-separated: ids cannot contain a comma.
  if (sources.length > 0) memory.source = sources.join(",");
  return [memory];
}

/** The ask for a question of a chosen category with some evidence left, or undefined. */
function askFor(
  question: Question,
  turnIds: ReadonlySet<string>,
  options: ScenarioOptions,
  stats: ImportStats,
  where: string,
  malformed: (index: number, id: string) => void,
): AskSpec | undefined {
  const category = question.category ?? NO_CATEGORY;
  if (options.categories !== undefined && !options.categories.includes(category)) {
    stats.notChosen += 1;
    return undefined;
  }
  const tally = (stats.categories[category] ??= { questions: 0, asked: 0 });
  tally.questions += 1;
  stats.questions += 1;

  const evidence: string[] = [];
  for (const [i, id] of question.evidence.entries()) {
    if (!ID_PATTERN.test(id)) {
      countRepair(stats, "malformedEvidence", `${where} ${question.id}: ${JSON.stringify(id)}`);
      malformed(i, id);
    } else if (!turnIds.has(id)) countRepair(stats, "unknownEvidence", `${where} ${question.id}: "${id}"`);
    else if (evidence.includes(id)) countRepair(stats, "duplicateEvidence", `${where} ${question.id}: "${id}"`);
    else evidence.push(id);
  }
  if (evidence.length === 0) {
    countRepair(stats, "questionsWithoutEvidence", `${where} ${question.id}`);
    return undefined;
  }
  tally.asked += 1;
  stats.asked += 1;
  return {
    id: question.id,
    query: question.text,
    expect: evidence,
    required: [...evidence],
    stale: [],
    answers: question.answer === undefined ? [] : [question.answer],
    ...(question.category !== undefined ? { category: question.category } : {}),
  };
}

const ASKED = {
  end: "asked after the last session",
  online: "each asked at a seeded random time between the session holding its newest evidence and the last session",
  immediate: "each asked right after the session holding its newest evidence",
} as const;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

function describe(conversation: Conversation, sessions: DatedSession[], asked: number, options: ScenarioOptions): string {
  const head = conversation.description?.trim() || `Conversation ${conversation.id}`;
  const categories = options.categories === undefined ? "" : ` (categories ${options.categories.join(", ")})`;
  return (
    `${head}: ${plural(sessions.length, "session")} from ${isoDay(sessions[0].time)} to ${isoDay(sessions[sessions.length - 1].time)}, ` +
    `each turn an episodic memory${options.observations ? " and each annotated observation a semantic one" : ""}, ` +
    `with ${plural(asked, "question")}${categories} whose gold ids are their evidence turns, ${ASKED[options.protocol?.protocol ?? "end"]}.` +
    (options.credit ? ` ${options.credit}` : "")
  );
}
