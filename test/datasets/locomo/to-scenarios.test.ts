import { describe, expect, it } from "vitest";
import { parseLocomo } from "../../../src/datasets/locomo/load.js";
import { LOCOMO_ADVERSARIAL_ANSWERS, toScenarios, turnText } from "../../../src/datasets/locomo/to-scenarios.js";
import { UserError } from "../../../src/shared/errors.js";
import { fixtureSamples, LEAKY_QUERY } from "./fixture.js";
import { asksOf, expectPlayable, memoriesOf } from "./invariants.js";

const samples = () => parseLocomo(fixtureSamples(), "fixture.json");
const T1 = Date.UTC(2023, 4, 8, 13, 56);
const T2 = Date.UTC(2023, 4, 10, 0, 30);
const T10 = Date.UTC(2024, 2, 1, 9, 5);

describe("toScenarios", () => {
  it("plays each conversation's sessions in order on the clock, then asks its questions", () => {
    const [a] = toScenarios(samples()).scenarios;
    const turn = (id: string, text: string, at: number) => ({
      id,
      kind: "episodic",
      text,
      importance: 5,
      occurred: { at },
      source: id,
    });
    expect(a).toEqual({
      name: "locomo-conv-a",
      targets: [],
      description: expect.stringContaining("LoCoMo conversation conv-a between Ann and Bob"),
      scope: "conv-a",
      start: T1,
      pool: [],
      steps: [
        { advance: 0 },
        {
          remember: [
            turn("D1:1", "Ann: I adopted a cat named Miso.", T1),
            turn("D1:2", "Bob: Look at this! [image: a photo of an umbrella on a beach]", T1),
          ],
        },
        {
          remember: [
            { id: "conv-a:obs:1:0", kind: "semantic", text: "Ann has a cat named Miso.", importance: 5, source: "D1:1" },
            { id: "conv-a:obs:1:1", kind: "semantic", text: "Bob shared a photo of an umbrella.", importance: 5, source: "D1:2" },
          ],
        },
        { advance: T2 - T1 },
        {
          remember: [turn("D2:1", "Bob: How is Miso?", T2), turn("D2:2", "Ann: She sleeps all day.", T2)],
        },
        {
          remember: [
            { id: "conv-a:obs:2:0", kind: "semantic", text: "Miso sleeps all day.", importance: 5, source: "D2:1,D2:2" },
          ],
        },
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

  it("counts what it imported, skipped, dropped and repaired", () => {
    expect(toScenarios(samples()).stats).toEqual({
      conversations: 2,
      sessions: 5,
      turns: 8,
      observations: 3,
      questionsByCategory: { "1 multi-hop": 1, "2 temporal": 1, "3 open-domain": 1, "4 single-hop": 2 },
      questionsAskedByCategory: { "1 multi-hop": 1, "2 temporal": 1, "3 open-domain": 0, "4 single-hop": 2 },
      questionsAsked: 4,
      questionsWithoutEvidence: 1,
      evidenceIdsDropped: 2,
      droppedExamples: ['conv-a q2 (1 multi-hop): "D"', 'conv-a q2 (1 multi-hop): "D99:1"'],
      dateRegressions: 1,
      duplicateTurnIds: 1,
      observationEvidenceDropped: 0,
      observationsWithoutSession: 1,
    });
  });

  it("never lets the clock run backwards when a session is dated before the previous one", () => {
    const [, b] = toScenarios(samples()).scenarios;
    const june5 = Date.UTC(2023, 5, 5, 16, 0);
    const june1 = Date.UTC(2023, 5, 1, 16, 0);
    expect(b.start).toBe(june5);
    expect(b.steps.filter((step) => "advance" in step)).toEqual([{ advance: 0 }, { advance: 0 }]);
    // The event keeps its own date even though it is played later.
    expect(memoriesOf(b).find((m) => m.id === "D2:1")?.occurred).toEqual({ at: june1 });
    expectPlayable(b);
  });

  it("keeps a turn whose dialogue id repeats under a suffixed id, with evidence naming the first", () => {
    const [, b] = toScenarios(samples()).scenarios;
    expect(memoriesOf(b).map((m) => [m.id, m.source, m.text])).toEqual([
      ["D1:1", "D1:1", "Cy: Hello."],
      ["D1:1-2", "D1:1", "Di: Hi, same id as before."],
      ["D2:1", "D2:1", "Cy: Bye."],
    ]);
    expect(asksOf(b)[0].expect).toEqual(["D1:1"]);
  });

  it("never ingests an image's search query, only its caption", () => {
    const { scenarios } = toScenarios(samples(), { categories: [1, 2, 3, 4, 5], skipUnanswerable: false });
    const texts = scenarios.flatMap(memoriesOf).map((m) => m.text);
    expect(texts.some((text) => text.includes("[image: a photo of an umbrella on a beach]"))).toBe(true);
    expect(texts.filter((text) => text.includes(LEAKY_QUERY))).toEqual([]);
    expect(JSON.stringify(scenarios)).not.toContain(LEAKY_QUERY);
  });

  it("asks unanswerable questions with no gold ids when told not to skip them", () => {
    const { scenarios, stats } = toScenarios(samples(), { skipUnanswerable: false });
    const q3 = asksOf(scenarios[0]).find((ask) => ask.id === "q3");
    expect(q3).toMatchObject({ expect: [], required: [], answers: ["a dog"], category: "3 open-domain" });
    expect(stats.questionsAsked).toBe(5);
    expect(stats.questionsWithoutEvidence).toBe(1);
  });

  it("asks only the chosen categories; an adversarial question's answer is that it was not mentioned", () => {
    const { scenarios, stats } = toScenarios(samples(), { categories: [5] });
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
    expect(asksOf(scenarios[1])).toEqual([]);
    expect(stats.questionsByCategory).toEqual({ "5 adversarial": 1 });
  });

  it("can leave observations out", () => {
    const { scenarios, stats } = toScenarios(samples(), { observations: false });
    expect(scenarios.flatMap(memoriesOf).every((m) => m.kind === "episodic")).toBe(true);
    expect(stats.observations).toBe(0);
    expect(stats.observationsWithoutSession).toBe(0);
  });

  it("refuses unknown or no categories with a user error", () => {
    expect(() => toScenarios(samples(), { categories: [0] })).toThrow(UserError);
    expect(() => toScenarios(samples(), { categories: [6] })).toThrow(/unknown LoCoMo category 6; expected one of: 1 multi-hop/);
    expect(() => toScenarios(samples(), { categories: [] })).toThrow(UserError);
  });

  it("states in each description what the scenario is and where it comes from", () => {
    const [a] = toScenarios(samples()).scenarios;
    expect(a.description).toContain("3 sessions from 2023-05-08 to 2024-03-01");
    expect(a.description).toContain("then 3 questions (categories 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)");
    expect(a.description).toContain("snap-research/LoCoMo");
  });
});

describe("turnText", () => {
  it("prefixes the speaker and appends the image caption", () => {
    expect(turnText({ speaker: "Ann", text: " Hi " })).toBe("Ann: Hi");
    expect(turnText({ speaker: "Ann", text: "Look", blip_caption: "a dog" })).toBe("Ann: Look [image: a dog]");
    expect(turnText({ speaker: "Ann", text: "", blip_caption: "a dog" })).toBe("Ann: [image: a dog]");
  });
});
