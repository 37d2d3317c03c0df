/** The LoCoMo importer: read the public benchmark file and turn each conversation into a scenario. */
export {
  categoryLabel,
  DEFAULT_LOCOMO_CATEGORIES,
  isLocomoCategory,
  LOCOMO_CATEGORIES,
  LOCOMO_CATEGORY_IDS,
  type LocomoCategoryId,
} from "./categories.js";
export { LOCOMO_DATE_EXAMPLE, parseLocomoDate } from "./dates.js";
export { canonicalDiaId, normaliseEvidence, type NormalisedEvidence } from "./evidence.js";
export { DEFAULT_LOCOMO_PATH, loadLocomo, parseLocomo, type LoadedLocomo, type LoadLocomoOptions } from "./load.js";
export { LOCOMO_COMMIT, LOCOMO_SHA256 } from "./messages.js";
export {
  locomoFileSchema,
  type LocomoObservation,
  type LocomoQa,
  type LocomoSample,
  type LocomoSession,
  type LocomoTurn,
} from "./schema.js";
export {
  LOCOMO_ADVERSARIAL_ANSWERS,
  toScenarios,
  turnText,
  type LocomoImportStats,
  type LocomoScenarios,
  type ToScenariosOptions,
} from "./to-scenarios.js";
