import { existsSync, readFileSync } from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderLine } from "../../src/memory/escape.js";
import { tokenPieces } from "../../src/memory/token-pieces.js";
import { gemmaTokenizerFiles } from "../../src/memory/tokenizer.js";
import { repoPath } from "../harness/temp-files.js";
import { tokenizer } from "./helpers.js";

/**
 * The tokenizer prices a line piece by piece (see token-pieces.ts). That is exact only because of
 * properties of the pinned files, checked here, and it is compared with encoding whole lines,
 * the oracle, on real and random text.
 */
const files = gemmaTokenizerFiles();
const json = JSON.parse(readFileSync(files.tokenizer, "utf8")) as {
  normalizer: unknown;
  pre_tokenizer: unknown;
  added_tokens: { content: string; lstrip: boolean; rstrip: boolean; normalized: boolean }[];
  model: { merges: [string, string][] };
};
const oracle = new Tokenizer(json as unknown as object, JSON.parse(readFileSync(files.config, "utf8")));
const wholeLine = (text: string) => oracle.encode(text, { add_special_tokens: false }).ids.length;

describe("the pinned tokenizer's properties that make piecewise counting exact", () => {
  it("turns spaces into ▁ and then splits on spaces, which are gone: one BPE word per line", () => {
    expect(json.normalizer).toEqual({ type: "Replace", pattern: { String: " " }, content: "▁" });
    expect(json.pre_tokenizer).toEqual({ type: "Split", pattern: { String: " " }, behavior: "MergedWithPrevious", invert: false });
  });

  it("has exactly one merge that joins another character to a following ▁: > with ▁</", () => {
    const crossing = json.model.merges.filter(([left, right]) => /[^▁]▁/.test(left + right));
    expect(crossing).toEqual([[">", "▁</"]]);
  });

  it("has no added token that holds a space or strips the whitespace around it", () => {
    expect(json.added_tokens.filter((t) => t.content.includes(" ") || t.lstrip || t.rstrip || t.normalized)).toEqual([]);
  });
});

describe("tokenPieces", () => {
  it("cuts before a space that follows a word, and the pieces join back to the text", () => {
    expect(tokenPieces("Ann: I adopted a cat.")).toEqual(["Ann:", " I", " adopted", " a", " cat."]);
    expect(tokenPieces("two  spaces")).toEqual(["two", "  spaces"]);
    expect(tokenPieces(" leading")).toEqual([" leading"]);
    expect(tokenPieces("")).toEqual([""]);
  });

  it("never cuts after a ▁ or a >, where a merge can still join the two sides", () => {
    expect(tokenPieces("a▁ b")).toEqual(["a▁ b"]);
    expect(tokenPieces("<p> </p>. x")).toEqual(["<p> </p>.", " x"]);
  });
});

describe("counting a line piece by piece", () => {
  it("gives the whole line's count on random text made of the characters that matter", () => {
    const char = fc.constantFrom(" ", " ", " ", "▁", ">", "<", "/", "> </", " </", "\n", "\t", "a", "b", "e", "the", "é", "😀", "1", ".", "'", "&gt;");
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        expect(tokenizer.count(text)).toBe(wholeLine(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives the whole line's count on the scenario files' memory lines", () => {
    const texts = readFileSync(repoPath("scenarios/per-kind-demo.yaml"), "utf8").split("\n");
    for (const text of texts) expect(tokenizer.count(renderLine(text))).toBe(wholeLine(renderLine(text)));
  });

  const locomo = repoPath("data/locomo10.json");
  it.skipIf(!existsSync(locomo))("gives the whole line's count on a sample of LoCoMo turns", () => {
    const samples = JSON.parse(readFileSync(locomo, "utf8")) as { conversation: Record<string, unknown> }[];
    const lines = samples
      .flatMap((s) => Object.entries(s.conversation).filter(([key]) => /^session_\d+$/.test(key)))
      .flatMap(([, turns]) => (turns as { speaker: string; text: string }[]).map((t) => renderLine(`${t.speaker}: ${t.text}`)))
      .filter((_, i) => i % 12 === 0);
    expect(lines.length).toBeGreaterThan(400);
    for (const line of lines) expect(tokenizer.count(line)).toBe(wholeLine(line));
  });
});
