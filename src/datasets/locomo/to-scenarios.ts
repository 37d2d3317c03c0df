import type { ScenarioSpec } from "../../harness/scenario/schema.js";
import { userError } from "../../shared/errors.js";
import { ScenarioCollector } from "../conversations/import.js";
import type { ProtocolSettings } from "../conversations/ask-time.js";
import { conversationSchema } from "../conversations/schema.js";
import type { ImportStats } from "../conversations/stats.js";
import { categoryLabel, DEFAULT_LOCOMO_CATEGORIES, isLocomoCategory, type LocomoCategoryId } from "./categories.js";
import { locomoUnknownCategory } from "./messages.js";
import type { LocomoSample } from "./schema.js";
import { emptyConversionStats, type LocomoConversionStats, locomoToConversation } from "./to-conversations.js";

/** Where the data comes from, in each scenario's description. */
export const LOCOMO_CREDIT =
  'From Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents" (ACL 2024), snap-research/LoCoMo, CC BY-NC 4.0.';

export interface ToScenariosOptions {
  /** Question categories to ask (ids 1–5); default 1–4. 5 (adversarial) has no gold turns worth ranking. */
  categories?: readonly number[];
  /** Each observation becomes a semantic memory linked to its turns; default true. */
  observations?: boolean;
  /** When the questions are asked; default after the last session. */
  protocol?: ProtocolSettings;
}

export interface LocomoScenarios {
  scenarios: ScenarioSpec[];
  /** What the conversation importer read, built and repaired. */
  stats: ImportStats;
  /** What converting LoCoMo's own quirks needed. */
  conversion: LocomoConversionStats;
}

/** The chosen categories, checked, without repeats, in id order. */
export function chosenCategories(chosen: readonly number[] = DEFAULT_LOCOMO_CATEGORIES): LocomoCategoryId[] {
  const categories: LocomoCategoryId[] = [];
  for (const id of chosen) {
    if (!isLocomoCategory(id)) throw locomoUnknownCategory(id);
    if (!categories.includes(id)) categories.push(id);
  }
  if (categories.length === 0) throw userError("select at least one LoCoMo question category");
  return categories.sort((a, b) => a - b);
}

/**
 * One scenario per conversation: each sample converted to the conversation format, then taken
 * through the importer every dataset shares.
 */
export function toScenarios(samples: readonly LocomoSample[], options: ToScenariosOptions = {}): LocomoScenarios {
  const conversion = emptyConversionStats();
  const collector = new ScenarioCollector({
    categories: chosenCategories(options.categories).map(categoryLabel),
    observations: options.observations ?? true,
    credit: LOCOMO_CREDIT,
    ...(options.protocol === undefined ? {} : { protocol: options.protocol }),
  });
  for (const sample of samples) collector.add(conversationSchema.parse(locomoToConversation(sample, conversion)), `the LoCoMo data (sample ${sample.sampleId})`);
  const { scenarios, stats } = collector.result("the LoCoMo data");
  return { scenarios, stats, conversion };
}
