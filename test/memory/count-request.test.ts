import { describe, expect, it } from "vitest";
import { applyGemmaChatTemplate, countRequest } from "../../src/memory/count-request.js";
import { tokenizer } from "./helpers.js";

describe("applyGemmaChatTemplate", () => {
  it("folds the system message into the first user turn and opens a model turn", () => {
    const text = applyGemmaChatTemplate([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
      { role: "user", content: "Where to?" },
    ]);
    expect(text).toBe(
      "<start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n" +
        "<start_of_turn>model\nHello<end_of_turn>\n" +
        "<start_of_turn>user\nWhere to?<end_of_turn>\n" +
        "<start_of_turn>model\n",
    );
  });

  it("without a system message, gives each message its own turn as written", () => {
    const text = applyGemmaChatTemplate([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
    ]);
    expect(text).toBe("<start_of_turn>user\nHi<end_of_turn>\n" + "<start_of_turn>model\nHello<end_of_turn>\n" + "<start_of_turn>model\n");
  });

  it("trims each turn's content, the folded system message included", () => {
    const text = applyGemmaChatTemplate([
      { role: "system", content: "  Be brief. " },
      { role: "user", content: " Hi\n" },
      { role: "assistant", content: "\tHello  " },
    ]);
    expect(text).toBe(
      "<start_of_turn>user\nBe brief. \n\n Hi<end_of_turn>\n" + "<start_of_turn>model\nHello<end_of_turn>\n" + "<start_of_turn>model\n",
    );
  });

  it("turns a lone system message into the user turn, trimmed", () => {
    expect(applyGemmaChatTemplate([{ role: "system", content: " Be brief. " }])).toBe(
      "<start_of_turn>user\nBe brief.<end_of_turn>\n<start_of_turn>model\n",
    );
  });

  it("opens only the model turn for no messages", () => {
    expect(applyGemmaChatTemplate([])).toBe("<start_of_turn>model\n");
  });
});

describe("countRequest", () => {
  it("counts the template's special tokens and BOS on top of the content", () => {
    const messages = [{ role: "user" as const, content: "Where should we stay in Lisbon?" }];
    const total = countRequest(tokenizer, messages);
    // <start_of_turn>, <end_of_turn> ×1 and a second <start_of_turn> are one token each.
    expect(total).toBe(tokenizer.countWithSpecialTokens(applyGemmaChatTemplate(messages)));
    expect(total).toBeGreaterThan(tokenizer.count(messages[0].content) + 3);
  });
});
