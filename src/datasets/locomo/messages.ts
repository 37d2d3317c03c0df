import { fileError, type FileError, type RecollectError, userError } from "../../shared/errors.js";
import { categoryLabel, LOCOMO_CATEGORY_IDS } from "./categories.js";

/** Where the pinned LoCoMo file comes from; the message for a missing file tells users this. */
const LOCOMO_REPOSITORY = "snap-research/LoCoMo";
export const LOCOMO_COMMIT = "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376";
/** sha256 of data/locomo10.json at LOCOMO_COMMIT; results are comparable only on this file. */
export const LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4";
/** The CLI flags these messages point to. */
const LOCOMO_PATH_FLAG = "--locomo";
const ACCEPT_LOCOMO_HASH_FLAG = "--accept-locomo-hash";

export function locomoNotFound(path: string): FileError {
  return fileError(
    path,
    `LoCoMo data file not found. Download data/locomo10.json from the public ${LOCOMO_REPOSITORY} repository ` +
      `on GitHub (commit ${LOCOMO_COMMIT}) and pass its path with ${LOCOMO_PATH_FLAG} PATH`,
  );
}

export function locomoHashMismatch(path: string, expected: string, actual: string): FileError {
  const pinned = expected === LOCOMO_SHA256 ? ` (the pinned file from ${LOCOMO_REPOSITORY} commit ${LOCOMO_COMMIT})` : "";
  return fileError(
    path,
    `LoCoMo data file has sha256 ${actual}, expected ${expected}${pinned}. ` +
      `Results on another version are not comparable with recorded ones. ` +
      `To use this file anyway, pass ${ACCEPT_LOCOMO_HASH_FLAG} (in code: expectedSha256: false).`,
  );
}

export function locomoMalformedJson(path: string, reason: string, options?: ErrorOptions): FileError {
  return fileError(path, `the LoCoMo data file is not valid JSON (${reason})`, options);
}

export function locomoInvalid(path: string, where: string, problem: string): FileError {
  return fileError(path, `not a LoCoMo data file: at ${where}: ${problem}`);
}

export function locomoUnknownCategory(id: number): RecollectError {
  const known = LOCOMO_CATEGORY_IDS.map(categoryLabel).join(", ");
  return userError(`unknown LoCoMo category ${id}; expected one of: ${known}`);
}
