/**
 * runChat through the real memory system (SQLite store, Gemma tokenizer, retrieval, write-back)
 * against the Ollama test double, with the presets the CLI offers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as memory from "../../src/memory/index.js";
import { DEMO_QUESTION, runChat } from "../../src/model/chat-command.js";
import { startOllamaDouble, type OllamaDouble } from "./ollama-test-double.js";

let double: OllamaDouble;
beforeAll(async () => {
  double = await startOllamaDouble({ answer: () => "SQLite." });
});
afterAll(() => double.stop());

describe("runChat with the memory system", () => {
  it("answers the demo question from a block that holds the correction, not the corrected fact", async () => {
    const printed: string[] = [];
    const result = await runChat({
      memory,
      policy: memory.fullPolicy,
      seedMemories: true,
      samplingSeed: 1,
      host: double.host,
      print: (text) => printed.push(text),
    });
    expect(result.answer).toBe("SQLite.");
    expect(result.block.text).toContain("moved its storage from Postgres to SQLite");
    expect(result.block.text).not.toContain("stores its data in Postgres");
    expect(result.requestTokens).toBeGreaterThan(0);
    const system = (double.requests.find((r) => r.route === "chat")!.body.messages as { content: string }[])[0]!;
    expect(system.content).toContain(result.block.text);
    expect(printed[0]).toContain(DEMO_QUESTION);
  });

  it("embeds memories, query and turn under the embedding preset", async () => {
    const before = double.requests.filter((r) => r.route === "embed").length;
    const result = await runChat({ memory, policy: memory.streamPreset, seedMemories: true, host: double.host, print: () => {} });
    expect(result.answer).toBe("SQLite.");
    expect(double.requests.filter((r) => r.route === "embed").length - before).toBe(3);
  });
});
