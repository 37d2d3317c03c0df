import { describe, expect, it } from "vitest";
import { conversationJsonSchema } from "../../../src/datasets/conversations/json-schema.js";

type Node = { type?: string; required?: string[]; properties: Record<string, Node & { description?: string }>; items?: Node; additionalProperties?: unknown };

describe("conversationJsonSchema", () => {
  const schema = conversationJsonSchema() as Node & { title: string };

  it("describes one line of the format, with the importer's required keys and no unknown keys", () => {
    expect(schema.title).toMatch(/one line of a conversation JSON Lines file/);
    expect(schema.required).toEqual(["id", "sessions", "questions"]);
    expect(schema.additionalProperties).toBe(false);
    const session = schema.properties.sessions.items!;
    expect(session.required).toEqual(["id", "date", "turns"]);
    expect(session.properties.turns.items!.required).toEqual(["id", "speaker", "text"]);
    const question = schema.properties.questions.items!;
    expect(question.required).toEqual(["id", "text", "evidence"]);
    expect(Object.keys(question.properties)).toEqual(["id", "text", "evidence", "category", "answer", "askedAt"]);
  });

  it("explains each field for an editor", () => {
    expect(schema.properties.sessions.items!.properties.date.description).toMatch(/ISO 8601 with a timezone, or a bare date/);
    expect(schema.properties.questions.items!.properties.evidence.description).toMatch(/gold memories/);
  });
});
