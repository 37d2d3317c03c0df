import { describe, expect, it } from "vitest";
import type { NewMemory } from "../../src/memory/types.js";
import {
  importanceSince,
  insightsPrompt,
  questionsPrompt,
  reflect,
  reflectionDue,
  REFLECTION_THRESHOLD,
  type Evidence,
} from "../../src/agent/reflection.js";
import { scriptedClient } from "../model/scripted-client.js";

const recent: Evidence[] = [
  { id: "m1", text: "Klaus read a paper on gentrification" },
  { id: "m2", text: "Klaus stayed in the library until 11pm" },
  { id: "m3", text: "Klaus skipped lunch to keep writing" },
];
const byQuestion: Record<string, Evidence[]> = {
  "What is Klaus working on?": [recent[0]!, recent[1]!],
  "How does Klaus treat his health?": [recent[2]!, recent[1]!],
};

function harness(replies: string[]) {
  const client = scriptedClient(replies);
  const stored: NewMemory[] = [];
  const retrieved: string[] = [];
  const deps = {
    client,
    retrieve: (question: string) => {
      retrieved.push(question);
      return byQuestion[question] ?? [];
    },
    remember: (memory: NewMemory) => {
      stored.push(memory);
      return { id: `r${stored.length}` };
    },
  };
  return { client, stored, retrieved, deps };
}

const input = { scope: "klaus", now: 5_000, recent, model: "gemma4:e2b", options: { seed: 2 } };

describe("reflect", () => {
  it("asks for questions, retrieves evidence for each, and stores cited insights linked to their evidence", async () => {
    const { client, stored, retrieved, deps } = harness([
      "1. What is Klaus working on?\n2. How does Klaus treat his health?",
      "1. Klaus is devoted to his research on gentrification (because of 1, 2)",
      "1. Klaus neglects his health for his work (because of 1, 2)\n2. Klaus is tired (because of 9)",
    ]);
    const result = await reflect(deps, input);

    expect(retrieved).toEqual(["What is Klaus working on?", "How does Klaus treat his health?"]);
    expect(client.chats.map((c) => c.messages[0]!.content)).toEqual([
      questionsPrompt(recent, 3),
      insightsPrompt(byQuestion["What is Klaus working on?"]!, 5),
      insightsPrompt(byQuestion["How does Klaus treat his health?"]!, 5),
    ]);
    expect(client.chats.every((c) => c.options?.seed === 2 && c.model === "gemma4:e2b")).toBe(true);

    expect(stored).toEqual([
      {
        scope: "klaus",
        kind: "semantic",
        text: "Klaus is devoted to his research on gentrification",
        createdAt: 5_000,
        importance: 5,
        source: "reflection:m1,m2",
      },
      {
        scope: "klaus",
        kind: "semantic",
        text: "Klaus neglects his health for his work",
        createdAt: 5_000,
        importance: 5,
        source: "reflection:m3,m2",
      },
    ]);
    expect(result.insights.map((i) => [i.id, i.evidence])).toEqual([
      ["r1", ["m1", "m2"]],
      ["r2", ["m3", "m2"]],
    ]);
    // "because of 9" cites a statement that was not shown.
    expect(result.dropped).toBe(1);
  });

  it("numbers the statements it shows from 1, so citations map to those memories", () => {
    expect(insightsPrompt(recent, 5)).toContain(
      "1. Klaus read a paper on gentrification\n2. Klaus stayed in the library until 11pm\n3. Klaus skipped lunch",
    );
    expect(insightsPrompt(recent, 5)).toContain("(example format: insight (because of 1, 5, 3))");
  });

  it("drops a repeated insight and rates insights with the given rater", async () => {
    const { stored, deps } = harness([
      "What is Klaus working on?\nHow does Klaus treat his health?",
      "Klaus works hard (because of 1)",
      "Klaus works hard (because of 2)",
    ]);
    const result = await reflect({ ...deps, rate: (text) => text.length % 10 }, input);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.importance).toBe("Klaus works hard".length % 10);
    expect(result.dropped).toBe(1);
  });

  it("skips a question with no evidence without asking for insights", async () => {
    const { client, deps } = harness(["What is unknown?"]);
    const result = await reflect(deps, input);
    expect(result).toEqual({ questions: ["What is unknown?"], insights: [], dropped: 0 });
    expect(client.chats).toHaveLength(1);
  });

  it("does nothing without recent memories", async () => {
    const { client, deps } = harness([]);
    expect(await reflect(deps, { ...input, recent: [] })).toEqual({ questions: [], insights: [], dropped: 0 });
    expect(client.chats).toHaveLength(0);
  });
});

describe("trigger", () => {
  it("sums the importance of memories created after the last reflection", () => {
    const memories = [
      { importance: 9, createdAt: 10 },
      { importance: 4, createdAt: 20 },
      { importance: 7, createdAt: 30 },
    ];
    expect(importanceSince(memories, 10)).toBe(11);
    expect(importanceSince(memories, 0)).toBe(20);
  });

  it("is due once the sum reaches the threshold, 150 by default", () => {
    expect(REFLECTION_THRESHOLD).toBe(150);
    expect(reflectionDue(149)).toBe(false);
    expect(reflectionDue(150)).toBe(true);
    expect(reflectionDue(30, 20)).toBe(true);
  });
});
