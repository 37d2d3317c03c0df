import { parseIsoTime, type Question } from "./schema.js";

/**
 * When a question is asked decides what recency can do, so it is chosen in one place. Today there
 * is one protocol, `end`: every question after the last session. A question's own `askedAt` is
 * honoured when it is not earlier than that; an earlier one is moved to the end and counted.
 * Other protocols (asking right after the evidence, or at a random later time) slot in here.
 */
export type AskProtocol = "end";

export interface AskTime {
  at: number;
  /** The question's askedAt was earlier than the protocol allows and was moved. */
  clamped: boolean;
}

export interface Timeline {
  /** Epoch ms of the last session's date. */
  lastSession: number;
}

export function askTime(question: Question, timeline: Timeline, protocol: AskProtocol): AskTime {
  switch (protocol) {
    case "end": {
      const asked = question.askedAt === undefined ? timeline.lastSession : parseIsoTime(question.askedAt);
      return asked < timeline.lastSession ? { at: timeline.lastSession, clamped: true } : { at: asked, clamped: false };
    }
  }
}
