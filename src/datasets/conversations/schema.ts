import { z } from "zod";
import { formatPath } from "../../harness/files/load-yaml.js";
import { DISTRACTOR_PREFIX, writeBackId } from "../../harness/scenario/validate.js";

/**
 * One line of a conversation JSON Lines file: a conversation with dated sessions of turns, and
 * questions whose evidence names turns. This is the one format every benchmark arrives in (a
 * public one through a converter, a user's own data directly); schemas/conversation.schema.json
 * is generated from it. Objects are strict, so a misspelt key ("askedat") is an error rather
 * than a silently missing field.
 */

/**
 * Ids become scenario names, scopes and memory ids, and an observation lists its source turns
 * comma-separated, so ids keep to the scenario files' alphabet.
 */
export const ID_PATTERN = /^[A-Za-z0-9_.:\-/]+$/;
export const ID_RULE = "ids use letters, digits and _ . : - / only";
const idSchema = z.string().regex(ID_PATTERN, ID_RULE);

/** ISO 8601 with a timezone (Z or ±hh:mm), or a bare date (taken as midnight UTC). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;
export const ISO_TIME_EXAMPLE = '"2023-05-08T13:56:00Z", "2023-05-08T13:56:00+02:00" or "2023-05-08"';

/** Epoch ms of an ISO time this schema accepted. */
export function parseIsoTime(text: string): number {
  return Date.parse(text);
}

const isoTimeSchema = z
  .string()
  .regex(ISO_TIME, `expected an ISO 8601 time with a timezone or a bare date, such as ${ISO_TIME_EXAMPLE}`)
  .refine((text) => {
    // The pattern admits "2023-02-30"; a real day survives the round trip through Date.
    const match = ISO_TIME.exec(text);
    if (match === null) return true; // reported by the pattern
    const [, year, month, day] = match;
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    return date.getUTCDate() === Number(day) && date.getUTCMonth() === Number(month) - 1;
  }, "not a day of the calendar");

export const turnSchema = z
  .object({
    id: idSchema.describe("Unique within the conversation; questions name it as evidence"),
    speaker: z.string().min(1).describe("Who said it; the memory reads `speaker: text`"),
    /** An empty (or blank) text is skipped and counted, not refused: real logs have them. */
    text: z.string().describe("What was said; an empty turn is skipped and counted"),
  })
  .strict();

export const observationSchema = z
  .object({
    id: idSchema,
    /** A fact distilled from turns; an empty one is skipped and counted. */
    text: z.string().describe("A fact distilled from turns; it becomes a semantic memory"),
    /** The turns it was distilled from; `matchSource` counts it for them. */
    source: z.array(idSchema).default([]).describe("Ids of the turns it was distilled from"),
  })
  .strict();

export const sessionSchema = z
  .object({
    id: idSchema,
    date: isoTimeSchema.describe("When the session happened: ISO 8601 with a timezone, or a bare date (midnight UTC)"),
    turns: z.array(turnSchema).describe("Each turn becomes an episodic memory at the session's date"),
    observations: z.array(observationSchema).default([]).describe("Facts distilled from the turns, linked to them"),
  })
  .strict();

export const questionSchema = z
  .object({
    id: idSchema,
    text: z.string().refine((text) => text.trim() !== "", "a question needs text"),
    /**
     * Ids of the turns that answer it: its gold memories. Real data writes several in one string
     * ("D1:11; D3:18") or a range ("D12:3-D12:5"); such a string names no turn, so, like an id of a
     * turn that does not exist, it is dropped and counted rather than refused.
     */
    evidence: z.array(z.string()).describe("Ids of the turns that answer it: its gold memories; a string that is not an id is dropped and counted"),
    /** A label to break metrics down by. */
    category: z.string().min(1).optional().describe("A label to break metrics down by"),
    /** The expected answer, or a list of accepted alternatives. */
    answer: z.union([z.string(), z.array(z.string()).min(1)]).optional().describe("The answer, or a list of accepted answers"),
    /** When the question is asked; by default after the last session. */
    askedAt: isoTimeSchema.optional().describe("When it is asked; by default, and at the earliest, after the last session"),
  })
  .strict();

export const conversationSchema = z
  .object({
    id: idSchema.describe("Unique within the file; it names the scenario"),
    description: z.string().optional().describe("What the conversation is; it opens the scenario's description"),
    sessions: z.array(sessionSchema).min(1, "a conversation needs at least one session").describe("Played in date order"),
    questions: z.array(questionSchema).describe("Asked after the sessions; their gold memories are their evidence turns"),
  })
  .strict()
  .superRefine(checkIds);

export type Conversation = z.output<typeof conversationSchema>;
export type Session = Conversation["sessions"][number];
export type Turn = Session["turns"][number];
export type Observation = Session["observations"][number];
export type Question = Conversation["questions"][number];

/**
 * Turns and observations become memories of one scope, so their ids must differ from each other
 * and from the ids the runner gives to sampled distractors and written-back questions.
 */
function checkIds(
  conversation: { sessions: { turns: { id: string }[]; observations: { id: string }[] }[]; questions: { id: string }[] },
  ctx: z.RefinementCtx,
): void {
  const memories = new Map<string, string>();
  const claim = (id: string, path: (string | number)[]) => {
    const where = formatPath(path);
    const earlier = memories.get(id);
    if (earlier !== undefined) {
      ctx.addIssue({ code: "custom", path: [...path, "id"], message: `id "${id}" is already used at ${earlier}` });
    } else if (id.startsWith(DISTRACTOR_PREFIX)) {
      ctx.addIssue({ code: "custom", path: [...path, "id"], message: `ids starting with "${DISTRACTOR_PREFIX}" are kept for sampled distractors` });
    }
    memories.set(id, where);
  };
  conversation.sessions.forEach((session, s) => {
    session.turns.forEach((turn, t) => claim(turn.id, ["sessions", s, "turns", t]));
    session.observations.forEach((observation, o) => claim(observation.id, ["sessions", s, "observations", o]));
  });
  const questions = new Map<string, number>();
  conversation.questions.forEach((question, q) => {
    const earlier = questions.get(question.id);
    if (earlier !== undefined) {
      ctx.addIssue({ code: "custom", path: ["questions", q, "id"], message: `question id "${question.id}" is already used at questions[${earlier}]` });
    }
    questions.set(question.id, q);
    const stored = writeBackId(question.id);
    if (memories.has(stored)) {
      ctx.addIssue({
        code: "custom",
        path: ["questions", q, "id"],
        message: `a written-back question is stored as "${stored}", which is already the id at ${memories.get(stored)}`,
      });
    }
  });
}
