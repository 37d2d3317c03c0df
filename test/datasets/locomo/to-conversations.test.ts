import { describe, expect, it } from "vitest";
import { conversationSchema } from "../../../src/datasets/conversations/schema.js";
import { parseLocomo } from "../../../src/datasets/locomo/load.js";
import {
  emptyConversionStats,
  LOCOMO_ADVERSARIAL_ANSWERS,
  locomoToConversation,
  locomoTurnText,
} from "../../../src/datasets/locomo/to-conversations.js";
import { fixtureSamples, LEAKY_QUERY } from "./fixture.js";

const samples = () => parseLocomo(fixtureSamples(), "fixture.json");
const convert = () => {
  const stats = emptyConversionStats();
  return { conversations: samples().map((sample) => locomoToConversation(sample, stats)), stats };
};

describe("locomoToConversation", () => {
  it("writes each sample as a conversation: sessions in number order, turns with their speakers, observations by session", () => {
    const [a] = convert().conversations;
    expect(a).toEqual({
      id: "locomo-conv-a",
      description: "LoCoMo conversation conv-a between Ann and Bob",
      sessions: [
        {
          id: "session_1",
          date: "2023-05-08T13:56:00.000Z",
          turns: [
            { id: "D1:1", speaker: "Ann", text: "I adopted a cat named Miso." },
            { id: "D1:2", speaker: "Bob", text: "Look at this! [image: a photo of an umbrella on a beach]" },
          ],
          observations: [
            { id: "conv-a:obs:1:0", text: "Ann has a cat named Miso.", source: ["D1:1"] },
            { id: "conv-a:obs:1:1", text: "Bob shared a photo of an umbrella.", source: ["D1:2"] },
          ],
        },
        {
          id: "session_2",
          date: "2023-05-10T00:30:00.000Z",
          turns: [
            { id: "D2:1", speaker: "Bob", text: "How is Miso?" },
            { id: "D2:2", speaker: "Ann", text: "She sleeps all day." },
          ],
          observations: [{ id: "conv-a:obs:2:0", text: "Miso sleeps all day.", source: ["D2:1", "D2:2"] }],
        },
        {
          id: "session_10",
          date: "2024-03-01T09:05:00.000Z",
          turns: [{ id: "D10:1", speaker: "Ann", text: "Back from Lisbon." }],
          observations: [],
        },
      ],
      questions: [
        { id: "q0", text: "What is Ann's cat called?", evidence: ["D1:1"], category: "4 single-hop", answer: "Miso" },
        { id: "q1", text: "When did Ann adopt a cat?", evidence: ["D1:1", "D2:2"], category: "2 temporal", answer: "2023" },
        { id: "q2", text: "Where did Ann travel?", evidence: ["D10:1", "D", "D99:1"], category: "1 multi-hop", answer: "Lisbon" },
        { id: "q3", text: "What would Ann like?", evidence: [], category: "3 open-domain", answer: "a dog" },
        { id: "q4", text: "What is Bob's cat called?", evidence: ["D1:1"], category: "5 adversarial", answer: LOCOMO_ADVERSARIAL_ANSWERS },
      ],
    });
  });

  it("writes what the conversation format accepts", () => {
    for (const conversation of convert().conversations) expect(conversationSchema.safeParse(conversation).success).toBe(true);
  });

  it("keeps a repeated turn id under a suffixed id, and keeps the file's session order for the importer to sort", () => {
    const [, b] = convert().conversations;
    expect(b.sessions.map((s) => [s.id, s.date])).toEqual([
      ["session_1", "2023-06-05T16:00:00.000Z"],
      ["session_2", "2023-06-01T16:00:00.000Z"],
    ]);
    expect(b.sessions[0].turns.map((t) => t.id)).toEqual(["D1:1", "D1:1-2"]);
  });

  it("counts what converting repaired: evidence strings rewritten, repeated turn ids, observations of absent sessions", () => {
    expect(convert().stats).toEqual({ duplicateTurnIds: 1, evidenceRewritten: 3, evidenceNotIds: 0, observationsWithoutSession: 1 });
  });

  it("never writes an image's search query, only its caption", () => {
    expect(JSON.stringify(convert().conversations)).not.toContain(LEAKY_QUERY);
  });
});

describe("locomoTurnText", () => {
  it("appends the image caption to the text; the importer adds the speaker", () => {
    expect(locomoTurnText({ text: " Hi " })).toBe("Hi");
    expect(locomoTurnText({ text: "Look", blip_caption: "a dog" })).toBe("Look [image: a dog]");
    expect(locomoTurnText({ text: "", blip_caption: "a dog" })).toBe("[image: a dog]");
  });
});
