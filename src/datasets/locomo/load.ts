import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readCheckedFile, SIZE_LIMITS } from "../../shared/read-file.js";
import { locomoFileSchema, formatJsonPath, type LocomoSample } from "./schema.js";
import {
  LOCOMO_SHA256,
  locomoHashMismatch,
  locomoInvalid,
  locomoMalformedJson,
  locomoNotFound,
} from "./messages.js";

/** Where the file is looked for when no path is given, relative to the repository root. */
export const DEFAULT_LOCOMO_PATH = "data/locomo10.json";

export interface LoadLocomoOptions {
  /** The sha256 the file must have: LOCOMO_SHA256 by default; `false` accepts any version. */
  expectedSha256?: string | false;
}

export interface LoadedLocomo {
  samples: LocomoSample[];
  /** sha256 of the file's bytes, for the results manifest. */
  sha256: string;
}

/**
 * Read, verify and validate a LoCoMo file. Every way a user can get this wrong (no file, another
 * version, broken JSON, a file of another shape) is a FileError naming the file.
 */
export function loadLocomo(path: string, options: LoadLocomoOptions = {}): LoadedLocomo {
  const bytes = readBytes(path);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const expected = options.expectedSha256 ?? LOCOMO_SHA256;
  if (expected !== false && sha256 !== expected.toLowerCase()) {
    throw locomoHashMismatch(path, expected, sha256);
  }
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw locomoMalformedJson(path, (error as Error).message, { cause: error });
  }
  return { samples: parseLocomo(data, path), sha256 };
}

/** Validate already-parsed LoCoMo JSON; `file` names it in errors. */
export function parseLocomo(data: unknown, file: string): LocomoSample[] {
  const result = locomoFileSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw locomoInvalid(file, formatJsonPath(issue.path), issue.message);
  }
  return result.data;
}

function readBytes(path: string): Buffer {
  if (!existsSync(path)) throw locomoNotFound(path);
  return readCheckedFile(path, { maxBytes: SIZE_LIMITS.json, what: "LoCoMo data file" });
}
