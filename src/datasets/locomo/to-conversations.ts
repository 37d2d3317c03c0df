import { z } from "zod";
import type { ConversationInput } from "../conversations/write.js";
import { categoryLabel, isLocomoCategory } from "./categories.js";
import { canonicalDiaId, evidencePieces } from "./evidence.js";
import type { LocomoObservation, LocomoQa, LocomoSample, LocomoSession, LocomoTurn } from "./schema.js";

/**
 * The LoCoMo converter: each sample of locomo10.json becomes a conversation in the conversation
 * JSON Lines format, and from there takes the path every dataset takes. What is particular to
 * LoCoMo's file is handled here: dialogue ids written in several forms, repeated turn ids, image
 * captions, observations keyed by session, numbered categories, adversarial answers.
 */

/**
 * The right answer to an adversarial (category 5) question. `adversarial_answer` in the file is
 * the tempting wrong option; the official evaluation counts a reply as correct when it says the
 * conversation does not contain the answer.
 */
export const LOCOMO_ADVERSARIAL_ANSWERS = ["Not mentioned in the conversation", "No information available"];

const count = z.number().int().min(0);

/** What converting needed that the format's importer does not see; recorded in the results beside the import's stats. */
export const locomoConversionStatsSchema = z.object({
  /** Turns whose dialogue id repeats an earlier turn's; kept under a suffixed id ("D1:3-2"). */
  duplicateTurnIds: count,
  /** Evidence strings (of questions and observations) split into several ids or un-padded ("D30:05"). */
  evidenceRewritten: count,
  /** Pieces of evidence strings that are not ids at all; dropped. */
  evidenceNotIds: count,
  /** Observations of a session that has no turns in the conversation; dropped. */
  observationsWithoutSession: count,
});
export type LocomoConversionStats = z.output<typeof locomoConversionStatsSchema>;

export function emptyConversionStats(): LocomoConversionStats {
  return { duplicateTurnIds: 0, evidenceRewritten: 0, evidenceNotIds: 0, observationsWithoutSession: 0 };
}

/** The conversation id of a sample: dataset-qualified, so it names the scenario as well. */
export const locomoConversationId = (sampleId: string) => `locomo-${sampleId}`;

const ID = /^[A-Za-z0-9_.:\-/]+$/;

export function locomoToConversation(sample: LocomoSample, stats: LocomoConversionStats): ConversationInput {
  const turnIds = assignTurnIds(sample.sessions, stats);
  const observations = observationsBySession(sample, stats);
  return {
    id: locomoConversationId(sample.sampleId),
    description: `LoCoMo conversation ${sample.sampleId} between ${sample.speakerA} and ${sample.speakerB}`,
    sessions: sample.sessions.map((session) => ({
      id: `session_${session.index}`,
      date: new Date(session.time).toISOString(),
      turns: session.turns.map((turn) => ({ id: turnIds.get(turn)!, speaker: turn.speaker, text: locomoTurnText(turn) })),
      observations: (observations.get(session.index) ?? []).map((observation, i) => ({
        id: `${sample.sampleId}:obs:${observation.session}:${i}`,
        text: observation.fact,
        source: unique(evidenceIds(observation.evidence, stats)),
      })),
    })),
    questions: sample.qa.map((qa, index) => question(qa, index, stats)),
  };
}

/** "text [image: caption]". The turn's `query` is never used: it is the annotators' search string and leaks answers. */
export function locomoTurnText(turn: Pick<LocomoTurn, "text" | "blip_caption">): string {
  const parts = [turn.text.trim()];
  if (turn.blip_caption) parts.push(`[image: ${turn.blip_caption.trim()}]`);
  return parts.filter((part) => part !== "").join(" ");
}

/**
 * Turn ids are the canonical dialogue ids. A repeated id keeps its turn under a suffixed id
 * ("D1:3-2"), so nothing is lost and evidence still names the first turn; canonical ids never
 * contain "-", so the suffix cannot collide.
 */
function assignTurnIds(sessions: readonly LocomoSession[], stats: LocomoConversionStats): Map<LocomoTurn, string> {
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

function observationsBySession(sample: LocomoSample, stats: LocomoConversionStats): Map<number, LocomoObservation[]> {
  const sessions = new Set(sample.sessions.map((session) => session.index));
  const bySession = new Map<number, LocomoObservation[]>();
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

/** The ids in evidence strings, recovered; ids that name no turn are kept for the importer to drop and count. */
function evidenceIds(raw: readonly string[], stats: LocomoConversionStats): string[] {
  const ids: string[] = [];
  for (const entry of raw) {
    const pieces = evidencePieces(entry);
    if (pieces.length !== 1 || pieces[0] !== entry) stats.evidenceRewritten += 1;
    for (const piece of pieces) {
      if (ID.test(piece)) ids.push(piece);
      else stats.evidenceNotIds += 1;
    }
  }
  return ids;
}

const unique = (ids: string[]) => [...new Set(ids)];

function question(qa: LocomoQa, index: number, stats: LocomoConversionStats): ConversationInput["questions"][number] {
  // The schema admits categories 1–5 only.
  const category = isLocomoCategory(qa.category) ? categoryLabel(qa.category) : String(qa.category);
  const answer = qa.category === 5 ? [...LOCOMO_ADVERSARIAL_ANSWERS] : qa.answer === undefined ? undefined : String(qa.answer);
  return {
    id: `q${index}`,
    text: qa.question,
    evidence: evidenceIds(qa.evidence, stats),
    category,
    ...(answer === undefined ? {} : { answer }),
  };
}
