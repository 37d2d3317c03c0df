import { describe, expect, it } from "vitest";
import { conversationSchema } from "../../../src/datasets/conversations/schema.js";
import { emptyImportStats, type ImportStats } from "../../../src/datasets/conversations/stats.js";
import { conversationToScenario, type ScenarioOptions } from "../../../src/datasets/conversations/to-scenario.js";
import type { ConversationInput } from "../../../src/datasets/conversations/write.js";
import { checkTimeline } from "../../../src/harness/scenario/validate.js";
import { conversation } from "./build.js";

const S1 = Date.UTC(2023, 4, 8, 13, 56);
const S2 = Date.UTC(2023, 4, 15);
const DAY = 86_400_000;

function build(input: ConversationInput, options: ScenarioOptions = {}) {
  const stats = emptyImportStats();
  const scenario = conversationToScenario(conversationSchema.parse(input), options, stats);
  if (scenario) checkTimeline("built", scenario);
  return { scenario, stats };
}
const asks = (scenario: { steps: { ask?: { id: string } }[] } | undefined) => scenario!.steps.flatMap((s) => (s.ask ? [s.ask.id] : []));
const repairs = (stats: ImportStats) => Object.fromEntries(Object.entries(stats.repairs).filter(([, n]) => n > 0));

describe("conversationToScenario", () => {
  it("plays each session at its date (turns from their speakers, then observations linked to their turns), then asks after the last", () => {
    const { scenario, stats } = build(conversation());
    expect(scenario).toEqual({
      name: "conv-1",
      targets: [],
      description:
        "Conversation conv-1: 2 sessions from 2023-05-08 to 2023-05-15, each turn an episodic memory and each annotated observation " +
        "a semantic one, with 1 question whose gold ids are their evidence turns, asked after the last session.",
      scope: "conv-1",
      start: S1,
      pool: [],
      steps: [
        {
          remember: [
            { id: "s1:1", kind: "episodic", text: "Caroline: I adopted a cat named Miso.", occurred: { at: S1 }, source: "s1:1" },
            { id: "s1:2", kind: "episodic", text: "Melanie: Lovely! Send photos.", occurred: { at: S1 }, source: "s1:2" },
          ],
        },
        { remember: [{ id: "s1:o1", kind: "semantic", text: "Caroline has a cat named Miso.", source: "s1:1" }] },
        { advance: S2 - S1 },
        { remember: [{ id: "s2:1", kind: "episodic", text: "Melanie: I am off to Lisbon.", occurred: { at: S2 }, source: "s2:1" }] },
        {
          ask: {
            id: "q1",
            query: "What is Caroline's cat called?",
            expect: ["s1:1"],
            required: ["s1:1"],
            stale: [],
            answers: ["Miso"],
            category: "single-hop",
          },
        },
      ],
    });
    expect(stats).toMatchObject({ conversations: 1, scenarios: 1, sessions: 2, turns: 3, observations: 1, questions: 1, asked: 1 });
    expect(repairs(stats)).toEqual({});
  });

  it("uses the conversation's description, and credits the source when asked to", () => {
    const { scenario } = build(conversation("c", { description: "Two friends talk pets" }), { credit: "From somewhere, CC BY 4.0." });
    expect(scenario!.description).toMatch(/^Two friends talk pets: 2 sessions .* evidence turns, asked after the last session\. From somewhere, CC BY 4\.0\.$/);
  });

  it("plays sessions out of date order in date order, file order on ties, and counts them", () => {
    const late = { id: "late", date: "2023-06-01", turns: [{ id: "l:1", speaker: "A", text: "late" }] };
    const early = { id: "early", date: "2023-05-01", turns: [{ id: "e:1", speaker: "A", text: "early" }] };
    const tie = { id: "tie", date: "2023-05-01", turns: [{ id: "t:1", speaker: "A", text: "tie" }] };
    const { scenario, stats } = build(
      conversation("c", { sessions: [late, early, tie], questions: [{ id: "q", text: "When?", evidence: ["l:1"] }] }),
    );
    expect(scenario!.steps.flatMap((s) => s.remember?.map((m) => m.id) ?? [])).toEqual(["e:1", "t:1", "l:1"]);
    expect(scenario!.start).toBe(Date.UTC(2023, 4, 1));
    expect(stats.repairs.sessionsOutOfOrder).toBe(2);
    expect(stats.conversationsOutOfOrder).toBe(1);
    expect(stats.examples.sessionsOutOfOrder).toEqual(["c early: 2023-05-01", "c tie: 2023-05-01"]);
  });

  it("skips empty turns and counts them; evidence naming one is dropped like any unknown id", () => {
    const input = conversation();
    input.sessions[0].turns.push({ id: "s1:3", speaker: "Caroline", text: " \n " });
    input.questions[0].evidence = ["s1:1", "s1:3"];
    const { scenario, stats } = build(input);
    expect(JSON.stringify(scenario)).not.toContain('"s1:3"');
    expect(repairs(stats)).toEqual({ emptyTurns: 1, unknownEvidence: 1 });
    expect(stats.examples).toEqual({ emptyTurns: ["conv-1 s1:3"], unknownEvidence: ['conv-1 q1: "s1:3"'] });
  });

  it("drops evidence ids that name no turn, keeps a repeated one once, and drops a question left with none, counting each", () => {
    const input = conversation("c", {
      questions: [
        { id: "q1", text: "Cat?", evidence: ["s9:9", "s1:1", "s1:1"] },
        { id: "q2", text: "Dog?", evidence: ["nowhere"] },
        { id: "q3", text: "Nothing?", evidence: [] },
      ],
    });
    const { scenario, stats } = build(input);
    expect(asks(scenario)).toEqual(["q1"]);
    expect(scenario!.steps.at(-1)!.ask!.expect).toEqual(["s1:1"]);
    expect(repairs(stats)).toEqual({ unknownEvidence: 2, duplicateEvidence: 1, questionsWithoutEvidence: 2 });
    expect(stats).toMatchObject({ questions: 3, asked: 1, categories: { "(none)": { questions: 3, asked: 1 } } });
  });

  it("asks a question whose askedAt is before the last session after it, counting it; a later askedAt is honoured, in time order", () => {
    const input = conversation("c", {
      questions: [
        { id: "early", text: "Cat?", evidence: ["s1:1"], askedAt: "2023-05-10T09:00:00Z" },
        { id: "later", text: "Trip?", evidence: ["s2:1"], askedAt: "2023-05-20" },
        { id: "default", text: "Photos?", evidence: ["s1:2"] },
      ],
    });
    const { scenario, stats } = build(input);
    expect(scenario!.steps.slice(-4)).toMatchObject([
      { ask: { id: "early" } },
      { ask: { id: "default" } },
      { advance: 5 * DAY },
      { ask: { id: "later" } },
    ]);
    expect(repairs(stats)).toEqual({ askedAtTooEarly: 1 });
    expect(stats.examples.askedAtTooEarly).toEqual(["c early: 2023-05-10T09:00:00Z"]);
  });

  it("drops observation sources that name no turn, and skips empty observations, counting both", () => {
    const input = conversation();
    input.sessions[0].observations = [
      { id: "o1", text: "Caroline has a cat.", source: ["s1:1", "ghost"] },
      { id: "o2", text: "", source: ["s1:1"] },
    ];
    const { scenario, stats } = build(input);
    const observations = scenario!.steps.flatMap((s) => s.remember?.filter((m) => m.kind === "semantic") ?? []);
    expect(observations).toEqual([{ id: "o1", kind: "semantic", text: "Caroline has a cat.", source: "s1:1" }]);
    expect(repairs(stats)).toEqual({ unknownObservationSources: 1, emptyObservations: 1 });
  });

  it("can leave observations out", () => {
    const { scenario, stats } = build(conversation(), { observations: false });
    expect(scenario!.steps.flatMap((s) => s.remember ?? []).every((m) => m.kind === "episodic")).toBe(true);
    expect(stats.observations).toBe(0);
  });

  it("asks only the chosen categories and counts the others apart", () => {
    const input = conversation("c", {
      questions: [
        { id: "a", text: "A?", evidence: ["s1:1"], category: "temporal" },
        { id: "b", text: "B?", evidence: ["s1:1"], category: "multi-hop" },
        { id: "n", text: "N?", evidence: ["s1:1"] },
      ],
    });
    const { scenario, stats } = build(input, { categories: ["temporal"] });
    expect(asks(scenario)).toEqual(["a"]);
    expect(scenario!.description).toContain("with 1 question (categories temporal) whose");
    expect(stats).toMatchObject({ questions: 1, asked: 1, notChosen: 2, categories: { temporal: { questions: 1, asked: 1 } } });
  });

  it("gives no scenario for a conversation left with no question, and counts it", () => {
    const { scenario, stats } = build(conversation("c", { questions: [{ id: "q", text: "?", evidence: ["ghost"] }] }));
    expect(scenario).toBeUndefined();
    expect(stats).toMatchObject({ conversations: 1, scenarios: 0 });
    expect(stats.repairs.conversationsWithoutQuestions).toBe(1);
    expect(stats.examples.conversationsWithoutQuestions).toEqual(["c"]);
  });

  it("keeps a list of accepted answers as alternatives", () => {
    const input = conversation();
    input.questions[0].answer = ["Miso", "a cat called Miso"];
    expect(build(input).scenario!.steps.at(-1)!.ask!.answers).toEqual([["Miso", "a cat called Miso"]]);
  });

  it("quotes at most five examples of a repair", () => {
    const input = conversation("c", { questions: [{ id: "q", text: "?", evidence: ["s1:1", "a", "b", "c", "d", "e", "f", "g"] }] });
    const { stats } = build(input);
    expect(stats.repairs.unknownEvidence).toBe(7);
    expect(stats.examples.unknownEvidence).toHaveLength(5);
  });

  describe("under each ask protocol", () => {
    // Questions about the first session and about the second; the conversation ends with a third.
    const S3 = Date.UTC(2023, 4, 22);
    const input = conversation("c", {
      sessions: [
        ...conversation().sessions,
        { id: "s3", date: "2023-05-22", turns: [{ id: "s3:1", speaker: "Caroline", text: "Back home." }] },
      ],
      questions: [
        { id: "first", text: "What is the cat called?", evidence: ["s1:1"] },
        { id: "second", text: "Where is Melanie off to?", evidence: ["s2:1", "s1:2"] },
      ],
    });
    const times = (protocol: "end" | "online" | "immediate") => {
      const { scenario } = build(input, { protocol: { protocol, seed: 1 } });
      let clock = scenario!.start;
      const at = new Map<string, number>();
      const order: string[] = [];
      for (const step of scenario!.steps) {
        clock += step.advance ?? 0;
        if (step.ask) at.set(step.ask.id, clock);
        order.push(step.ask?.id ?? step.remember?.[0].id ?? "advance");
      }
      return { at, order: order.filter((o) => o !== "advance"), description: scenario!.description };
    };

    it("end: asks every question after the last session", () => {
      const { at, order, description } = times("end");
      expect([at.get("first"), at.get("second")]).toEqual([S3, S3]);
      expect(order.slice(-2)).toEqual(["first", "second"]);
      expect(description).toContain("asked after the last session");
    });

    it("immediate: asks each question right after the session holding its newest evidence, before the next", () => {
      const { at, order, description } = times("immediate");
      expect([at.get("first"), at.get("second")]).toEqual([S1, S2]);
      expect(order).toEqual(["s1:1", "s1:o1", "first", "s2:1", "second", "s3:1"]);
      expect(description).toContain("each asked right after the session holding its newest evidence");
    });

    it("online: asks each question between its newest evidence and the last session", () => {
      const { at, description } = times("online");
      expect(at.get("first")).toBeGreaterThanOrEqual(S1);
      expect(at.get("first")).toBeLessThanOrEqual(S3);
      expect(at.get("second")).toBeGreaterThanOrEqual(S2);
      expect(at.get("second")).toBeLessThanOrEqual(S3);
      expect(times("online").at).toEqual(at);
      expect(description).toContain("each asked at a seeded random time");
    });
  });
});
