import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isRecollectError } from "../../src/shared/errors.js";
import {
  gemmaTokenizerFiles,
  loadGemmaTokenizer,
  loadTokenizerFromFiles,
  TOKENIZER_MANIFEST,
} from "../../src/memory/tokenizer.js";
import { tempPath, tokenizer } from "./helpers.js";

describe("loadGemmaTokenizer", () => {
  it("loads once per process", async () => {
    expect(await loadGemmaTokenizer()).toBe(tokenizer);
  });

  it("resolves the pinned files through the package", () => {
    const files = gemmaTokenizerFiles();
    expect(files.tokenizer).toMatch(/tokenizer-gemma3[\\/]models[\\/]tokenizer\.json$/);
    expect(files.config).toMatch(/tokenizer_config\.json$/);
  });

  it("reports one combined hash over both pinned files", () => {
    expect(tokenizer.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenizer.sha256).not.toBe(TOKENIZER_MANIFEST.files["tokenizer.json"]);
  });

  it("counts a line without special tokens and a request with them", () => {
    const text = "The user prefers window seats.";
    expect(tokenizer.count(text)).toBeGreaterThan(3);
    // BOS is the one special token a plain encode adds.
    expect(tokenizer.countWithSpecialTokens(text)).toBe(tokenizer.count(text) + 1);
  });

  it("counts the empty line as zero tokens", () => expect(tokenizer.count("")).toBe(0));
});

describe("loadTokenizerFromFiles", () => {
  const reinstall = `reinstall ${TOKENIZER_MANIFEST.package}@${TOKENIZER_MANIFEST.version} (npm ci)`;

  it("loads the pinned files given explicitly as the cached tokenizer does", async () => {
    const loaded = await loadTokenizerFromFiles(gemmaTokenizerFiles(), TOKENIZER_MANIFEST);
    const text = "The user prefers window seats.";
    expect([loaded.sha256, loaded.count(text), loaded.countWithSpecialTokens(text)]).toEqual([
      tokenizer.sha256,
      tokenizer.count(text),
      tokenizer.countWithSpecialTokens(text),
    ]);
  });

  it("refuses a tampered file with a RecollectError naming it", async () => {
    const files = gemmaTokenizerFiles();
    const config = tempPath("tokenizer_config.json");
    copyFileSync(files.config, config);
    writeFileSync(config, `${readFileSync(config, "utf8")} `);
    const error = await loadTokenizerFromFiles(
      { tokenizer: files.tokenizer, config },
      TOKENIZER_MANIFEST,
    ).catch((e: unknown) => e);
    expect(isRecollectError(error)).toBe(true);
    const actual = createHash("sha256").update(readFileSync(config)).digest("hex");
    expect((error as Error).message).toBe(
      `${config}: sha256 ${actual} does not match the pinned ${TOKENIZER_MANIFEST.files["tokenizer_config.json"]}; ` +
        `the tokenizer file was changed — ${reinstall}`,
    );
  });

  it("refuses a missing file with a RecollectError naming it", async () => {
    const missing = tempPath("nowhere.json");
    const error = await loadTokenizerFromFiles(
      { tokenizer: missing, config: gemmaTokenizerFiles().config },
      TOKENIZER_MANIFEST,
    ).catch((e: unknown) => e);
    expect(isRecollectError(error)).toBe(true);
    expect((error as Error).message).toBe(`${missing}: cannot read the pinned tokenizer file; ${reinstall}`);
  });
});
