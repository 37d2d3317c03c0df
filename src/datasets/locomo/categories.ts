/**
 * LoCoMo question categories, numbered as in the official evaluation code
 * (snap-research/LoCoMo, task_eval/evaluation.py). Several papers print these columns under the
 * wrong names, so a category is always shown as "<id> <name>", never as a bare id.
 */
export const LOCOMO_CATEGORIES = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
} as const;

export type LocomoCategoryId = keyof typeof LOCOMO_CATEGORIES;

export const LOCOMO_CATEGORY_IDS = [1, 2, 3, 4, 5] as const satisfies readonly LocomoCategoryId[];

/** The categories imported unless asked otherwise: adversarial questions have no gold turns. */
export const DEFAULT_LOCOMO_CATEGORIES: readonly LocomoCategoryId[] = [1, 2, 3, 4];

export function isLocomoCategory(id: number): id is LocomoCategoryId {
  return Object.hasOwn(LOCOMO_CATEGORIES, id);
}

/** "1 multi-hop", "5 adversarial": the id with its name beside it. */
export function categoryLabel(id: LocomoCategoryId): string {
  return `${id} ${LOCOMO_CATEGORIES[id]}`;
}
