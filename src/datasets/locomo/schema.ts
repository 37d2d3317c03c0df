import { z } from "zod";
import { LOCOMO_DATE_EXAMPLE, parseLocomoDate } from "./dates.js";

/**
 * The raw LoCoMo file (a JSON list of conversations), validated and reshaped in one pass.
 *
 * Strict where the importer depends on the data (sample ids, turns, session dates, questions),
 * permissive elsewhere: unknown keys pass through, and the summaries are not read at all. The
 * output puts sessions in a list in numeric order, so the file's quirks are handled here once:
 * sessions come from the `session_<n>` keys, never from the date keys (conv-26 has dates for
 * sessions that do not exist).
 */

const SESSION_KEY = /^session_(\d+)$/;
const DATE_KEY = /^session_(\d+)_date_time$/;
const OBSERVATION_KEY = /^session_(\d+)_observation$/;

/** The ids that end up as scenario names and scopes; the scenario schema's id alphabet. */
const sampleIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:\-/]+$/, "expected a sample id of letters, digits and _ . : - / only");

const turnSchema = z.looseObject({
  speaker: z.string().min(1),
  dia_id: z.string().regex(/^D\d+:\d+$/, 'expected a dialogue id such as "D1:3"'),
  text: z.string(),
  img_url: z.unknown().optional(),
  blip_caption: z.string().optional(),
  /** The annotators' image-search string. It leaks answers and is never ingested. */
  query: z.string().optional(),
});
export type LocomoTurn = z.output<typeof turnSchema>;

export interface LocomoSession {
  /** The n of `session_<n>`. */
  index: number;
  /** The date as written, e.g. "1:56 pm on 8 May, 2023". */
  dateTime: string;
  /** The same date in epoch ms (UTC). */
  time: number;
  turns: LocomoTurn[];
}

const conversationSchema = z
  .looseObject({ speaker_a: z.string(), speaker_b: z.string() })
  .transform((conversation, ctx) => {
    const sessions: LocomoSession[] = [];
    for (const [key, value] of Object.entries(conversation)) {
      const match = SESSION_KEY.exec(key);
      if (!match) continue;
      const turns = z.array(turnSchema).safeParse(value);
      if (!turns.success) {
        for (const issue of turns.error.issues) {
          ctx.addIssue({ code: "custom", message: issue.message, path: [key, ...issue.path] });
        }
        continue;
      }
      const dateKey = `${key}_date_time`;
      const dateTime = conversation[dateKey];
      if (typeof dateTime !== "string") {
        ctx.addIssue({ code: "custom", message: `missing the date of ${key}`, path: [dateKey] });
        continue;
      }
      const time = parseLocomoDate(dateTime);
      if (time === null) {
        ctx.addIssue({
          code: "custom",
          message: `expected a date such as "${LOCOMO_DATE_EXAMPLE}", got ${JSON.stringify(dateTime)}`,
          path: [dateKey],
        });
        continue;
      }
      sessions.push({ index: Number(match[1]), dateTime, time, turns: turns.data });
    }
    if (sessions.length === 0) {
      ctx.addIssue({ code: "custom", message: "expected at least one session_<n> list of turns" });
    }
    sessions.sort((a, b) => a.index - b.index);
    return { speakerA: conversation.speaker_a, speakerB: conversation.speaker_b, sessions };
  });

const qaSchema = z.looseObject({
  question: z.string().min(1),
  /** Most answers are strings; a few are numbers (years). */
  answer: z.union([z.string(), z.number()]).optional(),
  /** Category 5 only: the tempting wrong option, not the answer. */
  adversarial_answer: z.string().optional(),
  evidence: z.array(z.string()),
  category: z.number().int().min(1).max(5),
});
export type LocomoQa = z.output<typeof qaSchema>;

/** A generated fact with the turn(s) it came from: a string ("D1:3", "D1:3, D1:5") or a list. */
const observationEntrySchema = z.tuple([z.string().min(1), z.union([z.string(), z.array(z.string())])]);

export interface LocomoObservation {
  /** The session it was drawn from. */
  session: number;
  speaker: string;
  fact: string;
  /** Dialogue ids as written; normalise them with `normaliseEvidence`. */
  evidence: string[];
}

const observationSchema = z
  .record(z.string(), z.record(z.string(), z.array(observationEntrySchema)))
  .transform((groups, ctx) => {
    const observations: LocomoObservation[] = [];
    for (const [key, bySpeaker] of Object.entries(groups)) {
      const match = OBSERVATION_KEY.exec(key);
      if (!match) {
        ctx.addIssue({ code: "custom", message: "expected a key such as session_1_observation", path: [key] });
        continue;
      }
      for (const [speaker, entries] of Object.entries(bySpeaker)) {
        for (const [fact, evidence] of entries) {
          observations.push({
            session: Number(match[1]),
            speaker,
            fact,
            evidence: typeof evidence === "string" ? [evidence] : evidence,
          });
        }
      }
    }
    // Stable sort: file order within a session.
    return observations.sort((a, b) => a.session - b.session);
  });

const sampleSchema = z
  .looseObject({
    sample_id: sampleIdSchema,
    conversation: conversationSchema,
    qa: z.array(qaSchema),
    observation: observationSchema.optional(),
    session_summary: z.unknown().optional(),
    event_summary: z.unknown().optional(),
  })
  .transform((sample) => ({
    sampleId: sample.sample_id,
    speakerA: sample.conversation.speakerA,
    speakerB: sample.conversation.speakerB,
    sessions: sample.conversation.sessions,
    qa: sample.qa,
    observations: sample.observation ?? [],
  }));
export type LocomoSample = z.output<typeof sampleSchema>;

export const locomoFileSchema = z.array(sampleSchema).min(1, "expected a list of LoCoMo samples");

/** `[3].conversation.session_2[5].dia_id`: a path inside the JSON, as a reader would write it. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "the top level";
  return path
    .map((key, i) => {
      if (typeof key === "number") return `[${key}]`;
      const name = String(key);
      return /^[A-Za-z_$][\w$]*$/.test(name) ? (i === 0 ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    })
    .join("");
}
