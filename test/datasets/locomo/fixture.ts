import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A small file shaped like locomo10.json, with the published file's quirks on purpose: sessions
 * out of key order and past 9, a date key for a session that does not exist, an image query that
 * must never be ingested, malformed evidence, an adversarial question, a numeric answer, and
 * observations citing turns in all three forms the real file uses.
 */

/** The image-search string of D1:2; no memory may contain it. */
export const LEAKY_QUERY = "zebra-striped umbrella secret";

export function fixtureSamples() {
  return [
    {
      sample_id: "conv-a",
      conversation: {
        speaker_a: "Ann",
        speaker_b: "Bob",
        session_10_date_time: "9:05 am on 1 March, 2024",
        session_10: [{ speaker: "Ann", dia_id: "D10:1", text: "Back from Lisbon." }],
        session_1_date_time: "1:56 pm on 8 May, 2023",
        session_1: [
          { speaker: "Ann", dia_id: "D1:1", text: "I adopted a cat named Miso." },
          {
            speaker: "Bob",
            dia_id: "D1:2",
            text: "Look at this!",
            img_url: ["https://example.org/umbrella.jpg"],
            blip_caption: "a photo of an umbrella on a beach",
            query: LEAKY_QUERY,
            "re-download": true,
          },
        ],
        session_2_date_time: "12:30 am on 10 May, 2023",
        session_2: [
          { speaker: "Bob", dia_id: "D2:1", text: "How is Miso?" },
          { speaker: "Ann", dia_id: "D2:2", text: "She sleeps all day." },
        ],
        // A date for a session that has no turns, as in conv-26.
        session_11_date_time: "10:00 am on 2 March, 2024",
      },
      qa: [
        { question: "What is Ann's cat called?", answer: "Miso", evidence: ["D1:1"], category: 4 },
        { question: "When did Ann adopt a cat?", answer: 2023, evidence: ["D1:1; D2:2"], category: 2 },
        { question: "Where did Ann travel?", answer: "Lisbon", evidence: ["D10:01", "D", "D99:1"], category: 1 },
        { question: "What would Ann like?", answer: "a dog", evidence: [], category: 3 },
        {
          question: "What is Bob's cat called?",
          adversarial_answer: "Miso",
          evidence: ["D1:1"],
          category: 5,
        },
      ],
      observation: {
        session_1_observation: {
          Ann: [["Ann has a cat named Miso.", "D1:1"]],
          Bob: [["Bob shared a photo of an umbrella.", ["D1:2"]]],
        },
        session_2_observation: { Ann: [["Miso sleeps all day.", "D2:1, D2:2"]] },
        session_11_observation: { Ann: [["Ann planned a trip.", "D11:1"]] },
      },
      session_summary: { session_1_summary: "Ann adopted a cat." },
      event_summary: { events_session_1: { Ann: ["Adopts Miso"], Bob: [], date: "8 May, 2023" } },
    },
    {
      sample_id: "conv-b",
      conversation: {
        speaker_a: "Cy",
        speaker_b: "Di",
        session_1_date_time: "4:00 pm on 5 June, 2023",
        session_1: [
          { speaker: "Cy", dia_id: "D1:1", text: "Hello." },
          { speaker: "Di", dia_id: "D1:1", text: "Hi, same id as before." },
        ],
        // Dated before session 1: the clock must not run backwards.
        session_2_date_time: "4:00 pm on 1 June, 2023",
        session_2: [{ speaker: "Cy", dia_id: "D2:1", text: "Bye." }],
      },
      qa: [{ question: "Who said hello?", answer: "Cy", evidence: ["D1:1"], category: 4 }],
      observation: {},
      session_summary: {},
      event_summary: {},
    },
  ];
}

export type FixtureSamples = ReturnType<typeof fixtureSamples>;

/** Writes `content` (JSON-encoded unless it is a string) to a fresh temporary file. */
export function writeTemp(content: unknown, name = "locomo10.json"): string {
  const dir = mkdtempSync(join(tmpdir(), "locomo-test-"));
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}
