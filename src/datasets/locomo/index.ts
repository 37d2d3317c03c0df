/** LoCoMo: read the public benchmark file and convert each sample to the conversation format. */
export {
  categoryLabel,
  DEFAULT_LOCOMO_CATEGORIES,
  isLocomoCategory,
  LOCOMO_CATEGORIES,
  LOCOMO_CATEGORY_IDS,
  type LocomoCategoryId,
} from "./categories.js";
export { LOCOMO_DATE_EXAMPLE, parseLocomoDate } from "./dates.js";
export { canonicalDiaId, evidencePieces } from "./evidence.js";
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
  emptyConversionStats,
  LOCOMO_ADVERSARIAL_ANSWERS,
  locomoConversationId,
  type LocomoConversionStats,
  locomoConversionStatsSchema,
  locomoToConversation,
  locomoTurnText,
} from "./to-conversations.js";
export { chosenCategories, LOCOMO_CREDIT, type LocomoScenarios, toScenarios, type ToScenariosOptions } from "./to-scenarios.js";
