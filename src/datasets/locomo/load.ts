import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { locomoFileSchema, formatJsonPath, type LocomoSample } from "./schema.js";
import {
  LOCOMO_SHA256,
  locomoHashMismatch,
  locomoInvalid,
  locomoMalformedJson,
  locomoNotFound,
  locomoUnreadable,
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
 * version, broken JSON, a file of another shape) is a UserError naming the file.
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
    throw locomoMalformedJson(path, (error as Error).message);
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
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw locomoNotFound(path);
    throw locomoUnreadable(path, code ?? (error as Error).message);
  }
}
