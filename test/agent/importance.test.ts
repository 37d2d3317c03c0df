import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORTANCE } from "../../src/memory/types.js";
import {
  DEFAULT_IMPORTANCE_FALLBACK,
  importancePrompt,
  parseImportance,
  rateImportance,
} from "../../src/agent/importance.js";
import { scriptedClient } from "../model/scripted-client.js";

describe("parseImportance", () => {
  it.each([
    ["7", 7],
    ["Rating: 7", 7],
    ["Rating: **3**", 3],
    ["rating:10", 10],
    ["7/10", 7],
    ["I would give it 8 / 10.", 8],
    ["Seven out of 10.", 7],
    ["Rating: seven", 7],
    ["On a scale of 1 to 10, this is a 2.", 2],
    ["On the scale of 1-10 I'd say 4, it is routine.", 4],
    ["Poignancy: 9 (a break up is hard)", 9],
    ["It rates 6.6", 7],
    ["Rating: 11. Well, 9 really.", 9],
    ["Mundane. 1", 1],
  ])("reads %j as %i", (reply, expected) => {
    expect(parseImportance(reply)).toBe(expected);
  });

  it.each([
    ["Rating: <fill in>"],
    ["I cannot rate memories."],
    ["No one would care about this."],
    ["100"],
    ["0"],
    [""],
  ])("finds no rating in %j", (reply) => {
    expect(parseImportance(reply)).toBeNull();
  });
});

describe("rateImportance", () => {
  it("sends the Generative Agents poignancy prompt with the memory and sampling options", async () => {
    const client = scriptedClient(["Rating: 8"]);
    const rating = await rateImportance(client, "I got into college", { model: "gemma4:e2b", options: { seed: 4 } });
    expect(rating).toEqual({ importance: 8, fallback: false, raw: "Rating: 8" });
    const sent = client.chats[0]!;
    expect(sent.options).toEqual({ seed: 4 });
    expect(sent.messages).toEqual([{ role: "user", content: importancePrompt("I got into college") }]);
    expect(sent.messages[0]!.content).toContain(
      "On the scale of 1 to 10, where 1 is purely mundane (e.g., brushing teeth, making bed) and 10 is extremely poignant",
    );
    expect(sent.messages[0]!.content).toMatch(/Memory: I got into college\nRating: <fill in>$/);
  });

  it("falls back to the stated default, and says so, when the reply holds no rating", async () => {
    const rating = await rateImportance(scriptedClient(["It depends."]), "made my bed", { model: "m" });
    expect(rating).toEqual({ importance: DEFAULT_IMPORTANCE_FALLBACK, fallback: true, raw: "It depends." });
    expect(DEFAULT_IMPORTANCE_FALLBACK).toBe(DEFAULT_IMPORTANCE);
  });

  it("uses a caller's fallback when given", async () => {
    const rating = await rateImportance(scriptedClient(["?"]), "x", { model: "m", fallback: 3 });
    expect(rating.importance).toBe(3);
  });
});
