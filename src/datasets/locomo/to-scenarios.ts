import type { AskSpec, MemorySpec, ScenarioSpec, StepSpec } from "../../harness/scenario/schema.js";
import {
  categoryLabel,
  DEFAULT_LOCOMO_CATEGORIES,
  isLocomoCategory,
  type LocomoCategoryId,
} from "./categories.js";
import { canonicalDiaId, normaliseEvidence } from "./evidence.js";
import { locomoUnknownCategory } from "./messages.js";
import type { LocomoObservation, LocomoQa, LocomoSample, LocomoSession, LocomoTurn } from "./schema.js";
import { userError } from "../../shared/errors.js";

/** LoCoMo has no importance ratings, so every memory gets the scale's midpoint. */
const LOCOMO_IMPORTANCE = 5;

/**
 * The right answer to an adversarial (category 5) question. `adversarial_answer` in the file is
 * the tempting wrong option; the official evaluation counts a reply as correct when it says the
 * conversation does not contain the answer.
 */
export const LOCOMO_ADVERSARIAL_ANSWERS = ["Not mentioned in the conversation", "No information available"];

/** How many dropped evidence ids are quoted in the stats. */
const DROPPED_EXAMPLES = 10;

export interface ToScenariosOptions {
  /** Question categories to ask (ids 1–5); default 1–4. 5 (adversarial) has no gold turns worth ranking. */
  categories?: readonly number[];
  /** Each observation becomes a semantic memory with its turn as source; default true. */
  observations?: boolean;
  /** Questions with no valid evidence id are counted but not asked; default true. */
  skipUnanswerable?: boolean;
}

export interface LocomoImportStats {
  conversations: number;
  sessions: number;
  turns: number;
  /** Observation memories written (0 when observations are off). */
  observations: number;
  /** Questions in the file per chosen category, keyed by label ("1 multi-hop"). */
  questionsByCategory: Record<string, number>;
  /** Questions that became asks, per chosen category. */
  questionsAskedByCategory: Record<string, number>;
  questionsAsked: number;
  /** Questions of the chosen categories with no valid evidence id, asked or not. */
  questionsWithoutEvidence: number;
  /** Evidence ids of the chosen categories' questions that match no turn after normalising. */
  evidenceIdsDropped: number;
  /** The first few dropped ids, with where they came from. */
  droppedExamples: string[];
  /** Sessions dated before the one played before them; the clock stays put for them. */
  dateRegressions: number;
  /** Turns whose dialogue id repeats an earlier turn's in the same conversation. */
  duplicateTurnIds: number;
  /** Observation source ids that match no turn. */
  observationEvidenceDropped: number;
  /** Observations of a session that has no turns in the conversation; not imported. */
  observationsWithoutSession: number;
}

export interface LocomoScenarios {
  scenarios: ScenarioSpec[];
  stats: LocomoImportStats;
}

interface Settings {
  categories: LocomoCategoryId[];
  observations: boolean;
  skipUnanswerable: boolean;
}

function settingsFrom(options: ToScenariosOptions): Settings {
  const chosen = options.categories ?? DEFAULT_LOCOMO_CATEGORIES;
  const categories: LocomoCategoryId[] = [];
  for (const id of chosen) {
    if (!isLocomoCategory(id)) throw locomoUnknownCategory(id);
    if (!categories.includes(id)) categories.push(id);
  }
  if (categories.length === 0) throw userError("select at least one LoCoMo question category");
  return {
    categories: categories.sort((a, b) => a - b),
    observations: options.observations ?? true,
    skipUnanswerable: options.skipUnanswerable ?? true,
  };
}

function emptyStats(settings: Settings): LocomoImportStats {
  const zeroes = () => Object.fromEntries(settings.categories.map((id) => [categoryLabel(id), 0]));
  return {
    conversations: 0,
    sessions: 0,
    turns: 0,
    observations: 0,
    questionsByCategory: zeroes(),
    questionsAskedByCategory: zeroes(),
    questionsAsked: 0,
    questionsWithoutEvidence: 0,
    evidenceIdsDropped: 0,
    droppedExamples: [],
    dateRegressions: 0,
    duplicateTurnIds: 0,
    observationEvidenceDropped: 0,
    observationsWithoutSession: 0,
  };
}

/**
 * One scenario per conversation: its sessions played in order on the virtual clock (each turn an
 * episodic memory, each observation a semantic one), then its questions asked at the end.
 */
export function toScenarios(samples: readonly LocomoSample[], options: ToScenariosOptions = {}): LocomoScenarios {
  const settings = settingsFrom(options);
  const stats = emptyStats(settings);
  const scenarios = samples.map((sample) => sampleToScenario(sample, settings, stats));
  return { scenarios, stats };
}

function sampleToScenario(sample: LocomoSample, settings: Settings, stats: LocomoImportStats): ScenarioSpec {
  stats.conversations += 1;
  const turnIds = assignTurnIds(sample.sessions, stats);
  const validIds = new Set(turnIds.values());
  const observationsBySession = groupObservations(sample, settings, stats);

  const start = sample.sessions[0].time;
  let clock = start;
  const steps: StepSpec[] = [];
  for (const session of sample.sessions) {
    stats.sessions += 1;
    if (session.time < clock) stats.dateRegressions += 1;
    const advance = Math.max(0, session.time - clock);
    steps.push({ advance });
    clock += advance;

    const turns = session.turns.map((turn) => turnMemory(turn, turnIds.get(turn)!, session));
    stats.turns += turns.length;
    if (turns.length > 0) steps.push({ remember: turns });

    const observations = (observationsBySession.get(session.index) ?? []).map((observation, i) =>
      observationMemory(sample.sampleId, observation, i, validIds, stats),
    );
    stats.observations += observations.length;
    if (observations.length > 0) steps.push({ remember: observations });
  }

  let asked = 0;
  sample.qa.forEach((qa, index) => {
    const category = qa.category as LocomoCategoryId;
    if (!settings.categories.includes(category)) return;
    const label = categoryLabel(category);
    stats.questionsByCategory[label] += 1;
    const evidence = normaliseEvidence(qa.evidence, validIds);
    stats.evidenceIdsDropped += evidence.dropped.length;
    for (const piece of evidence.dropped) {
      if (stats.droppedExamples.length < DROPPED_EXAMPLES) {
        stats.droppedExamples.push(`${sample.sampleId} q${index} (${label}): ${JSON.stringify(piece)}`);
      }
    }
    if (evidence.ids.length === 0) {
      stats.questionsWithoutEvidence += 1;
      if (settings.skipUnanswerable) return;
    }
    steps.push({ ask: askFor(qa, index, category, evidence.ids) });
    stats.questionsAsked += 1;
    stats.questionsAskedByCategory[label] += 1;
    asked += 1;
  });

  const last = sample.sessions[sample.sessions.length - 1];
  return {
    name: `locomo-${sample.sampleId}`,
    targets: [],
    description:
      `LoCoMo conversation ${sample.sampleId} between ${sample.speakerA} and ${sample.speakerB}: ` +
      `${sample.sessions.length} sessions from ${isoDay(start)} to ${isoDay(last.time)}, each turn an episodic memory` +
      `${settings.observations ? " and each annotated observation a semantic one" : ""}, ` +
      `then ${asked} questions (categories ${settings.categories.map(categoryLabel).join(", ")}) whose gold ids are ` +
      `their evidence turns. From Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents" ` +
      `(ACL 2024), snap-research/LoCoMo, CC BY-NC 4.0.`,
    scope: sample.sampleId,
    start,
    pool: [],
    steps,
  };
}

/**
 * Memory ids are the dialogue ids (each conversation is its own scenario and scope). A repeated
 * id keeps its text under a suffixed id ("D1:3-2"), so nothing is lost and evidence still names
 * the first turn; canonical ids never contain "-", so the suffix cannot collide.
 */
function assignTurnIds(sessions: readonly LocomoSession[], stats: LocomoImportStats): Map<LocomoTurn, string> {
  const ids = new Map<LocomoTurn, string>();
  const seen = new Map<string, number>();
  for (const session of sessions) {
    for (const turn of session.turns) {
      const id = canonicalDiaId(turn.dia_id);
      const count = (seen.get(id) ?? 0) + 1;
      seen.set(id, count);
      if (count > 1) stats.duplicateTurnIds += 1;
      ids.set(turn, count === 1 ? id : `${id}-${count}`);
    }
  }
  return ids;
}

function groupObservations(
  sample: LocomoSample,
  settings: Settings,
  stats: LocomoImportStats,
): Map<number, LocomoObservation[]> {
  const bySession = new Map<number, LocomoObservation[]>();
  if (!settings.observations) return bySession;
  const sessions = new Set(sample.sessions.map((session) => session.index));
  for (const observation of sample.observations) {
    if (!sessions.has(observation.session)) {
      stats.observationsWithoutSession += 1;
      continue;
    }
    const list = bySession.get(observation.session) ?? [];
    list.push(observation);
    bySession.set(observation.session, list);
  }
  return bySession;
}

/** "Speaker: text [image: caption]". The turn's `query` is never used: it leaks answers. */
export function turnText(turn: Pick<LocomoTurn, "speaker" | "text" | "blip_caption">): string {
  const parts = [turn.text.trim()];
  if (turn.blip_caption) parts.push(`[image: ${turn.blip_caption.trim()}]`);
  return `${turn.speaker}: ${parts.filter((part) => part !== "").join(" ")}`;
}

function turnMemory(turn: LocomoTurn, id: string, session: LocomoSession): MemorySpec {
  return {
    id,
    kind: "episodic",
    text: turnText(turn),
    importance: LOCOMO_IMPORTANCE,
    occurred: { at: session.time },
    source: turn.dia_id,
  };
}

function observationMemory(
  sampleId: string,
  observation: LocomoObservation,
  index: number,
  validIds: ReadonlySet<string>,
  stats: LocomoImportStats,
): MemorySpec {
  const evidence = normaliseEvidence(observation.evidence, validIds);
  stats.observationEvidenceDropped += evidence.dropped.length;
  const memory: MemorySpec = {
    id: `${sampleId}:obs:${observation.session}:${index}`,
    kind: "semantic",
    text: observation.fact,
    importance: LOCOMO_IMPORTANCE,
  };
  // Some observations cite several turns; they are listed comma-separated.
  if (evidence.ids.length > 0) memory.source = evidence.ids.join(",");
  return memory;
}

function askFor(qa: LocomoQa, index: number, category: LocomoCategoryId, evidence: string[]): AskSpec {
  return {
    id: `q${index}`,
    query: qa.question,
    expect: evidence,
    required: [...evidence],
    stale: [],
    answers: answersFor(qa, category),
    category: categoryLabel(category),
  };
}

function answersFor(qa: LocomoQa, category: LocomoCategoryId): AskSpec["answers"] {
  if (category === 5) return [[...LOCOMO_ADVERSARIAL_ANSWERS]];
  return qa.answer === undefined ? [] : [String(qa.answer)];
}

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
