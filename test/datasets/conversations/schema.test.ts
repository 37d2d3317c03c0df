import { describe, expect, it } from "vitest";
import { conversationSchema, parseIsoTime } from "../../../src/datasets/conversations/schema.js";
import { formatPath } from "../../../src/harness/files/load-yaml.js";
import { conversation } from "./build.js";

/** The first issue of parsing `data`, as "path: message", or "ok". */
function problem(data: unknown): string {
  const result = conversationSchema.safeParse(data);
  return result.success ? "ok" : `${formatPath(result.error.issues[0].path)}: ${result.error.issues[0].message}`;
}

describe("a line of the conversation format", () => {
  it("accepts the documented example, filling in the optional lists", () => {
    const line = {
      id: "conv-1",
      description: "optional text",
      sessions: [
        {
          id: "s1",
          date: "2023-05-08T13:56:00Z",
          turns: [{ id: "s1:1", speaker: "Caroline", text: "…" }],
          observations: [{ id: "s1:o1", text: "Caroline …", source: ["s1:1"] }],
        },
      ],
      questions: [{ id: "q1", text: "When did Caroline …?", evidence: ["s1:1"], category: "temporal", answer: "…", askedAt: "2023-06-01T09:00:00Z" }],
    };
    expect(conversationSchema.parse(line)).toEqual(line);
    const minimal = { id: "c", sessions: [{ id: "s", date: "2023-05-08", turns: [] }], questions: [] };
    expect(conversationSchema.parse(minimal)).toEqual({ ...minimal, sessions: [{ ...minimal.sessions[0], observations: [] }] });
  });

  it.each([
    ["2023-05-08T13:56:00Z", Date.UTC(2023, 4, 8, 13, 56)],
    ["2023-05-08T13:56Z", Date.UTC(2023, 4, 8, 13, 56)],
    ["2023-05-08T15:56:00.500+02:00", Date.UTC(2023, 4, 8, 13, 56, 0, 500)],
    ["2023-05-08", Date.UTC(2023, 4, 8)],
    ["2024-02-29", Date.UTC(2024, 1, 29)],
  ])("reads the time %s with its zone, or a bare date as midnight UTC", (date, time) => {
    expect(problem(conversation("c", { sessions: [{ id: "s", date, turns: [] }] }))).toBe("ok");
    expect(parseIsoTime(date)).toBe(time);
  });

  it.each(["2023-05-08T13:56:00", "8 May 2023", "2023-5-8", "2023-05-08T24:00Z", ""])("refuses the time %j: no zone, or not ISO 8601", (date) => {
    expect(problem(conversation("c", { sessions: [{ id: "s", date, turns: [] }] }))).toMatch(
      /^sessions\[0\]\.date: expected an ISO 8601 time with a timezone or a bare date, such as "2023-05-08T13:56:00Z"/,
    );
  });

  it.each(["2023-02-30", "2023-02-29", "2023-04-31T10:00Z"])("refuses %s, which is not a day of the calendar", (date) => {
    expect(problem(conversation("c", { sessions: [{ id: "s", date, turns: [] }] }))).toBe("sessions[0].date: not a day of the calendar");
  });

  it("refuses what a converter could get wrong, at its path", () => {
    const base = conversation();
    const [s1, s2] = base.sessions;
    expect(problem({ ...base, sessions: undefined })).toMatch(/^sessions: .*expected array, received undefined$/);
    expect(problem({ ...base, sessions: [] })).toBe("sessions: a conversation needs at least one session");
    expect(problem({ ...base, id: "conv 1" })).toBe("id: ids use letters, digits and _ . : - / only");
    expect(problem({ ...base, id: 7 })).toMatch(/^id: .*expected string, received number$/);
    expect(problem({ ...base, askedAt: "x" })).toMatch(/^\(top level\): Unrecognized key: "askedAt"$/);
    expect(problem({ ...base, sessions: [{ ...s1, turns: [{ id: "t", speaker: "", text: "hi" }] }] })).toMatch(/^sessions\[0\]\.turns\[0\]\.speaker: /);
    expect(problem({ ...base, questions: [{ id: "q", text: "  ", evidence: [] }] })).toBe("questions[0].text: a question needs text");
    expect(problem({ ...base, questions: [{ id: "q", text: "Why?", evidence: "s1:1" }] })).toMatch(/^questions\[0\]\.evidence: .*expected array/);
  });

  it("refuses a turn id used twice in a conversation, even across sessions, naming the first use", () => {
    const base = conversation();
    const twice = { ...base, sessions: [base.sessions[0], { ...base.sessions[1], turns: [{ id: "s1:2", speaker: "M", text: "again" }] }] };
    expect(problem(twice)).toBe('sessions[1].turns[0].id: id "s1:2" is already used at sessions[0].turns[1]');
  });

  it("refuses an observation id that is a turn's, a question id used twice, and the ids the runner keeps for itself", () => {
    const base = conversation();
    const s1 = base.sessions[0];
    expect(problem({ ...base, sessions: [{ ...s1, observations: [{ id: "s1:1", text: "x", source: [] }] }] })).toBe(
      'sessions[0].observations[0].id: id "s1:1" is already used at sessions[0].turns[0]',
    );
    const q = base.questions[0];
    expect(problem({ ...base, questions: [q, q] })).toBe('questions[1].id: question id "q1" is already used at questions[0]');
    expect(problem({ ...base, sessions: [{ ...s1, turns: [{ id: "distractor:0", speaker: "A", text: "x" }] }] })).toBe(
      'sessions[0].turns[0].id: ids starting with "distractor:" are kept for sampled distractors',
    );
    expect(problem({ ...base, sessions: [{ ...s1, turns: [{ id: "turn:q1", speaker: "A", text: "x" }] }] })).toBe(
      'questions[0].id: a written-back question is stored as "turn:q1", which is already the id at sessions[0].turns[0]',
    );
  });
});
