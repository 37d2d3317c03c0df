import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { writeConversationBenchmark } from "../../src/bench/conversation-data.js";
import { conversationSchema } from "../../src/datasets/conversations/schema.js";
import { useTempDir } from "../harness/temp-files.js";

const temp = useTempDir();
const options = { conversations: 20, turnsPerConversation: 30, turnsPerSession: 7, words: [5, 9] as [number, number], seed: 3 };

describe("writeConversationBenchmark", () => {
  it("writes the asked-for shape: conversations of whole sessions, one answerable question each", async () => {
    const file = temp.path("bench.jsonl.gz");
    expect(await writeConversationBenchmark(file, options)).toBe(20);
    const conversations = gunzipSync(readFileSync(file)).toString("utf8").trimEnd().split("\n").map((line) => conversationSchema.parse(JSON.parse(line)));
    expect(conversations).toHaveLength(20);
    for (const c of conversations) {
      const turns = c.sessions.flatMap((s) => s.turns);
      expect(turns).toHaveLength(30);
      expect(c.sessions.map((s) => s.turns.length).sort()).toEqual([2, 7, 7, 7, 7]);
      for (const turn of turns) expect(turn.text.split(" ").length).toBeGreaterThanOrEqual(5);
      expect(c.questions).toHaveLength(1);
      expect(turns.map((t) => t.id)).toContain(c.questions[0].evidence[0]);
    }
    const outOfOrder = conversations.filter((c) => c.sessions.some((s, i) => i > 0 && s.date < c.sessions[i - 1].date)).length;
    expect(outOfOrder).toBeGreaterThan(3);
    expect(outOfOrder).toBeLessThan(17);
  });

  it("gives the same bytes for the same options", async () => {
    const [a, b] = [temp.path("a.jsonl"), temp.path("b.jsonl")];
    await writeConversationBenchmark(a, options);
    await writeConversationBenchmark(b, options);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });
});
