import { describe, expect, it } from "vitest";
import { parseLocomo } from "../../../src/datasets/locomo/load.js";
import { LOCOMO_ADVERSARIAL_ANSWERS } from "../../../src/datasets/locomo/to-conversations.js";
import { LOCOMO_CREDIT, toScenarios } from "../../../src/datasets/locomo/to-scenarios.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { fixtureSamples, LEAKY_QUERY } from "./fixture.js";
import { asksOf, expectPlayable, memoriesOf } from "./invariants.js";

const samples = () => parseLocomo(fixtureSamples(), "fixture.json");
const T1 = Date.UTC(2023, 4, 8, 13, 56);
const T2 = Date.UTC(2023, 4, 10, 0, 30);
const T10 = Date.UTC(2024, 2, 1, 9, 5);

describe("toScenarios", () => {
  it("plays each conversation's sessions in order on the clock, then asks its questions", () => {
    const [a] = toScenarios(samples()).scenarios;
    const turn = (id: string, text: string, at: number) => ({ id, kind: "episodic", text, occurred: { at }, source: id });
    expect(a).toEqual({
      name: "locomo-conv-a",
      targets: [],
      description: expect.stringContaining("LoCoMo conversation conv-a between Ann and Bob"),
      scope: "locomo-conv-a",
      start: T1,
      pool: [],
      steps: [
        {
          remember: [
            turn("D1:1", "Ann: I adopted a cat named Miso.", T1),
            turn("D1:2", "Bob: Look at this! [image: a photo of an umbrella on a beach]", T1),
          ],
        },
        {
          remember: [
            { id: "conv-a:obs:1:0", kind: "semantic", text: "Ann has a cat named Miso.", source: "D1:1" },
            { id: "conv-a:obs:1:1", kind: "semantic", text: "Bob shared a photo of an umbrella.", source: "D1:2" },
          ],
        },
        { advance: T2 - T1 },
        { remember: [turn("D2:1", "Bob: How is Miso?", T2), turn("D2:2", "Ann: She sleeps all day.", T2)] },
        { remember: [{ id: "conv-a:obs:2:0", kind: "semantic", text: "Miso sleeps all day.", source: "D2:1,D2:2" }] },
        { advance: T10 - T2 },
        { remember: [turn("D10:1", "Ann: Back from Lisbon.", T10)] },
        {
          ask: {
            id: "q0",
            query: "What is Ann's cat called?",
            expect: ["D1:1"],
            required: ["D1:1"],
            stale: [],
            answers: ["Miso"],
            category: "4 single-hop",
          },
        },
        {
          ask: {
            id: "q1",
            query: "When did Ann adopt a cat?",
            expect: ["D1:1", "D2:2"],
            required: ["D1:1", "D2:2"],
            stale: [],
            answers: ["2023"],
            category: "2 temporal",
          },
        },
        {
          ask: {
            id: "q2",
            query: "Where did Ann travel?",
            expect: ["D10:1"],
            required: ["D10:1"],
            stale: [],
            answers: ["Lisbon"],
            category: "1 multi-hop",
          },
        },
      ],
    });
    expectPlayable(a);
  });

  it("counts what the importer read, skipped and repaired, and what converting repaired", () => {
    const { stats, conversion } = toScenarios(samples());
    expect(stats).toEqual({
      conversations: 2,
      scenarios: 2,
      sessions: 5,
      turns: 8,
      observations: 3,
      questions: 5,
      asked: 4,
      notChosen: 1,
      categories: {
        "4 single-hop": { questions: 2, asked: 2 },
        "2 temporal": { questions: 1, asked: 1 },
        "1 multi-hop": { questions: 1, asked: 1 },
        "3 open-domain": { questions: 1, asked: 0 },
      },
      repairs: {
        sessionsOutOfOrder: 1,
        emptyTurns: 0,
        emptyObservations: 0,
        unknownObservationSources: 0,
        unknownEvidence: 2,
        duplicateEvidence: 0,
        questionsWithoutEvidence: 1,
        askedAtTooEarly: 0,
        conversationsWithoutQuestions: 0,
      },
      conversationsOutOfOrder: 1,
      examples: {
        unknownEvidence: ['locomo-conv-a q2: "D"', 'locomo-conv-a q2: "D99:1"'],
        questionsWithoutEvidence: ["locomo-conv-a q3"],
        sessionsOutOfOrder: ["locomo-conv-b session_2: 2023-06-01T16:00:00.000Z"],
      },
    });
    expect(conversion).toEqual({ duplicateTurnIds: 1, evidenceRewritten: 3, evidenceNotIds: 0, observationsWithoutSession: 1 });
  });

  it("plays a session dated before an earlier-listed one in date order; each turn keeps its own date", () => {
    const [, b] = toScenarios(samples()).scenarios;
    const june1 = Date.UTC(2023, 5, 1, 16, 0);
    const june5 = Date.UTC(2023, 5, 5, 16, 0);
    expect(b.start).toBe(june1);
    expect(memoriesOf(b).map((m) => [m.id, m.occurred])).toEqual([
      ["D2:1", { at: june1 }],
      ["D1:1", { at: june5 }],
      ["D1:1-2", { at: june5 }],
    ]);
    expect(b.steps.filter((step) => "advance" in step)).toEqual([{ advance: june5 - june1 }]);
    expectPlayable(b);
  });

  it("keeps a turn whose dialogue id repeats under a suffixed id, with evidence naming the first", () => {
    const [, b] = toScenarios(samples()).scenarios;
    expect(memoriesOf(b).find((m) => m.id === "D1:1-2")?.text).toBe("Di: Hi, same id as before.");
    expect(asksOf(b)[0].expect).toEqual(["D1:1"]);
  });

  it("never ingests an image's search query, only its caption", () => {
    const { scenarios } = toScenarios(samples(), { categories: [1, 2, 3, 4, 5] });
    const texts = scenarios.flatMap(memoriesOf).map((m) => m.text);
    expect(texts.some((text) => text.includes("[image: a photo of an umbrella on a beach]"))).toBe(true);
    expect(JSON.stringify(scenarios)).not.toContain(LEAKY_QUERY);
  });

  it("asks only the chosen categories; an adversarial question's answer is that it was not mentioned", () => {
    const { scenarios, stats } = toScenarios(samples(), { categories: [5] });
    expect(scenarios).toHaveLength(1);
    expect(asksOf(scenarios[0])).toEqual([
      {
        id: "q4",
        query: "What is Bob's cat called?",
        expect: ["D1:1"],
        required: ["D1:1"],
        stale: [],
        answers: [LOCOMO_ADVERSARIAL_ANSWERS],
        category: "5 adversarial",
      },
    ]);
    // adversarial_answer is the trap ("Miso"), never a key.
    expect(JSON.stringify(asksOf(scenarios[0])[0].answers)).not.toContain("Miso");
    // conv-b has no adversarial question: it is not run, and that is counted.
    expect(stats.categories).toEqual({ "5 adversarial": { questions: 1, asked: 1 } });
    expect(stats.repairs.conversationsWithoutQuestions).toBe(1);
  });

  it("can leave observations out", () => {
    const { scenarios, stats } = toScenarios(samples(), { observations: false });
    expect(scenarios.flatMap(memoriesOf).every((m) => m.kind === "episodic")).toBe(true);
    expect(stats.observations).toBe(0);
  });

  it("refuses unknown or no categories with a user error", () => {
    expect(() => toScenarios(samples(), { categories: [0] })).toThrow(RecollectError);
    expect(() => toScenarios(samples(), { categories: [6] })).toThrow(/unknown LoCoMo category 6; expected one of: 1 multi-hop/);
    expect(() => toScenarios(samples(), { categories: [] })).toThrow(RecollectError);
  });

  it("states in each description what the scenario is and where it comes from", () => {
    const [a] = toScenarios(samples()).scenarios;
    expect(a.description).toBe(
      "LoCoMo conversation conv-a between Ann and Bob: 3 sessions from 2023-05-08 to 2024-03-01, each turn an episodic memory " +
        "and each annotated observation a semantic one, with 3 questions (categories 1 multi-hop, 2 temporal, 3 open-domain, " +
        `4 single-hop) whose gold ids are their evidence turns, asked after the last session. ${LOCOMO_CREDIT}`,
    );
  });
});
