import type { AskProtocol } from "../../harness/experiment/schema.js";
import { createRng } from "../../harness/stats/rng.js";
import { parseIsoTime, type Question } from "./schema.js";

/**
 * When a question is asked decides what recency can do, so it is chosen in one place, by the
 * experiment's ask protocol:
 *
 * - `end`: every question after the last session, as benchmarks usually ask them. A question's
 *   own `askedAt` is honoured when it is not earlier than that; an earlier one is moved to the end
 *   and counted.
 * - `online`: each question at a time drawn uniformly between the session that holds its newest
 *   evidence and the last session, as a user would ask some time after the fact. The draw is
 *   seeded by the protocol seed and the question, so it is the same on every run. A question
 *   with its own `askedAt` is asked then, moved up to its newest evidence (and counted) if earlier.
 * - `immediate`: right after the session that holds its newest evidence.
 *
 * A session's memories are written at its date, so "after a session" is its date, with the
 * questions ordered after its memories.
 */
export { ASK_PROTOCOLS, type AskProtocol } from "../../harness/experiment/schema.js";

export interface AskTime {
  at: number;
  /** The question's askedAt was earlier than the protocol allows and was moved. */
  clamped: boolean;
}

export interface QuestionTimes {
  /** Epoch ms of the last session's date. */
  lastSession: number;
  /** Epoch ms of the date of the latest session holding one of the question's evidence turns. */
  newestEvidence: number;
  /** Where the question sits, for its seeded draw: conversation id and question id. */
  conversation: string;
}

export interface ProtocolSettings {
  protocol: AskProtocol;
  /** Seeds the `online` draws. */
  seed: number;
}

export function askTime(question: Question, times: QuestionTimes, settings: ProtocolSettings): AskTime {
  const askedAt = question.askedAt === undefined ? undefined : parseIsoTime(question.askedAt);
  switch (settings.protocol) {
    case "end":
      return atLeast(askedAt ?? times.lastSession, times.lastSession);
    case "online": {
      if (askedAt !== undefined) return atLeast(askedAt, times.newestEvidence);
      const u = createRng(settings.seed).fork(`online\u0000${times.conversation}\u0000${question.id}`).nextFloat();
      return { at: Math.round(times.newestEvidence + u * (times.lastSession - times.newestEvidence)), clamped: false };
    }
    case "immediate":
      return { at: times.newestEvidence, clamped: false };
  }
}

function atLeast(at: number, earliest: number): AskTime {
  return at < earliest ? { at: earliest, clamped: true } : { at, clamped: false };
}
