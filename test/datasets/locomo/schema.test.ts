import { describe, expect, it } from "vitest";
import { parseLocomo } from "../../../src/datasets/locomo/load.js";
import { formatJsonPath } from "../../../src/datasets/locomo/schema.js";
import { fixtureSamples, LEAKY_QUERY } from "./fixture.js";
import { FileError } from "../../../src/shared/errors.js";
import { userError } from "../../helpers/user-error.js";


describe("parseLocomo", () => {
  it("lists sessions in numeric order from the session keys, ignoring dates of sessions that do not exist", () => {
    const [a] = parseLocomo(fixtureSamples(), "f.json");
    expect(a.sessions.map((s) => s.index)).toEqual([1, 2, 10]);
    expect(a.sessions.map((s) => s.dateTime)).toEqual([
      "1:56 pm on 8 May, 2023",
      "12:30 am on 10 May, 2023",
      "9:05 am on 1 March, 2024",
    ]);
    expect(a.sessions[0].time).toBe(Date.UTC(2023, 4, 8, 13, 56));
  });

  it("keeps speakers, turns (with unknown keys passed through), questions and observations", () => {
    const [a] = parseLocomo(fixtureSamples(), "f.json");
    expect(a.sampleId).toBe("conv-a");
    expect([a.speakerA, a.speakerB]).toEqual(["Ann", "Bob"]);
    expect(a.sessions[0].turns[1]).toMatchObject({ dia_id: "D1:2", query: LEAKY_QUERY, "re-download": true });
    expect(a.qa.map((q) => q.category)).toEqual([4, 2, 1, 3, 5]);
    expect(a.qa[1].answer).toBe(2023);
    expect(a.observations).toEqual([
      { session: 1, speaker: "Ann", fact: "Ann has a cat named Miso.", evidence: ["D1:1"] },
      { session: 1, speaker: "Bob", fact: "Bob shared a photo of an umbrella.", evidence: ["D1:2"] },
      { session: 2, speaker: "Ann", fact: "Miso sleeps all day.", evidence: ["D2:1, D2:2"] },
      { session: 11, speaker: "Ann", fact: "Ann planned a trip.", evidence: ["D11:1"] },
    ]);
  });

  it("accepts a sample without observations or summaries", () => {
    const data = fixtureSamples().map(({ observation, session_summary, event_summary, ...rest }) => rest);
    expect(parseLocomo(data, "f.json")[0].observations).toEqual([]);
  });

  it("names the file and the path inside it when a turn is malformed", () => {
    const data = fixtureSamples();
    (data[0].conversation.session_2[1] as { dia_id: string }).dia_id = "turn two";
    const error = userError(() => parseLocomo(data, "data/x.json"));
    expect(error.message).toMatch(/^data\/x\.json: not a LoCoMo data file: at \[0\]\.conversation\.session_2\[1\]\.dia_id: /);
    expect(error.message).toContain('"D1:3"');
    expect(error).toBeInstanceOf(FileError);
  });

  it("requires a readable date for every session that has turns", () => {
    const missing = fixtureSamples();
    delete (missing[1].conversation as Record<string, unknown>).session_2_date_time;
    expect(userError(() => parseLocomo(missing, "f.json")).message).toContain(
      "at [1].conversation.session_2_date_time: missing the date of session_2",
    );

    const garbled = fixtureSamples();
    garbled[0].conversation.session_10_date_time = "March 1st";
    expect(userError(() => parseLocomo(garbled, "f.json")).message).toContain(
      'at [0].conversation.session_10_date_time: expected a date such as "1:56 pm on 8 May, 2023", got "March 1st"',
    );
  });

  it("rejects a category outside 1–5 and a sample id unusable as a scenario name", () => {
    const category = fixtureSamples();
    category[0].qa[0].category = 6;
    expect(userError(() => parseLocomo(category, "f.json")).message).toContain("at [0].qa[0].category:");

    const id = fixtureSamples();
    id[1].sample_id = "conv b";
    expect(userError(() => parseLocomo(id, "f.json")).message).toContain("at [1].sample_id: expected a sample id");
  });

  it("rejects a conversation with no sessions and observation keys of another shape", () => {
    const empty = fixtureSamples();
    empty[1].conversation = { speaker_a: "Cy", speaker_b: "Di" } as (typeof empty)[1]["conversation"];
    expect(userError(() => parseLocomo(empty, "f.json")).message).toContain("at [1].conversation: expected at least one");

    const observations = fixtureSamples();
    (observations[1] as Record<string, unknown>).observation = { notes: {} };
    expect(userError(() => parseLocomo(observations, "f.json")).message).toContain("at [1].observation.notes:");
  });

  it("rejects a file that is not a list of samples", () => {
    expect(userError(() => parseLocomo({ samples: [] }, "f.json")).message).toMatch(/^f\.json: not a LoCoMo data file: at the top level: /);
    expect(userError(() => parseLocomo([], "f.json")).message).toContain("expected a list of LoCoMo samples");
  });
});

describe("formatJsonPath", () => {
  it("writes indexes in brackets and odd keys quoted", () => {
    expect(formatJsonPath([0, "conversation", "session_1", 2, "dia_id"])).toBe("[0].conversation.session_1[2].dia_id");
    expect(formatJsonPath([3, "re-download"])).toBe('[3]["re-download"]');
    expect(formatJsonPath([])).toBe("the top level");
  });
});
