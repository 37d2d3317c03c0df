/**
 * Retrieval presets. Policies are plain JSON data, so the harness can patch them into ablations.
 *
 * - `streamPreset`: the Generative Agents memory stream — one pooled ranking by relevance
 *   (embeddings) + recency + importance, top 5, touching what it returns.
 * - `perKindPreset`: a section per kind — working notes newest first, facts, episodes and
 *   procedures by shared words — each under its own token quota.
 * - `pooledPreset`: the per-kind preset's baseline — one shared-words ranking over every kind
 *   under one quota, the sum of the per-kind quotas.
 * - `fullPolicy`: the harness baseline — per-kind sections ordered by the three-signal score
 *   with kind-aware decay, touch and write-back on.
 */
import type { Kind, RetrievalPolicy, ScoreConfig, SectionRule } from "./types.js";

/** Working notes kept in a block at most. */
export const WORKING_LIMIT = 3;

/**
 * Token quotas for each kind's memory lines (Gemma tokens; tags excluded). They are settings
 * sized for short personal-assistant memories like the demo's, not tuned values; experiments
 * patch them for longer memories.
 */
export const QUOTAS: Readonly<Record<Kind, number>> = {
  working: 32,
  semantic: 32,
  episodic: 24,
  procedural: 16,
};

/**
 * The harness baseline's quotas: room for a few facts, a few episodes and the task at hand, so
 * that the kinds compete for a tight prompt budget as they do in a small model's context. Like QUOTAS, settings rather than tuned values.
 */
export const FULL_QUOTAS: Readonly<Record<Kind, number>> = {
  working: 32,
  semantic: 48,
  episodic: 64,
  procedural: 24,
};

/** Item limits per kind; quotas usually bind first. */
export const SECTION_LIMITS: Readonly<Record<Kind, number>> = {
  working: WORKING_LIMIT,
  semantic: 8,
  episodic: 8,
  procedural: 5,
};

export const POOLED_QUOTA = QUOTAS.working + QUOTAS.semantic + QUOTAS.episodic + QUOTAS.procedural;
export const POOLED_LIMIT =
  SECTION_LIMITS.working + SECTION_LIMITS.semantic + SECTION_LIMITS.episodic + SECTION_LIMITS.procedural;

const baseScore: ScoreConfig = {
  weights: [1, 1, 1],
  decayRate: 0.995,
  kindDecay: {},
  unitMs: 3_600_000,
  normalise: "none",
  relevance: "words",
};

/** Shared words only: more shared words first; ties fall to the newer memory. */
const sharedWords: Partial<ScoreConfig> = { weights: [1, 0, 0], relevance: "words" };

const workingRule: SectionRule = {
  order: "newest",
  fit: "stop",
  limit: WORKING_LIMIT,
  quota: QUOTAS.working,
  requireRelevance: false,
};

function wordsRule(kind: Exclude<Kind, "working">): SectionRule {
  return {
    order: "score",
    score: sharedWords,
    fit: "skip",
    limit: SECTION_LIMITS[kind],
    quota: QUOTAS[kind],
    requireRelevance: true,
  };
}

function scoreRule(kind: Exclude<Kind, "working">): SectionRule {
  return {
    order: "score",
    fit: "skip",
    limit: SECTION_LIMITS[kind],
    quota: FULL_QUOTAS[kind],
    requireRelevance: false,
  };
}

export const perKindPreset: RetrievalPolicy = {
  mode: "per-kind",
  score: baseScore,
  sections: {
    working: workingRule,
    semantic: wordsRule("semantic"),
    episodic: wordsRule("episodic"),
    procedural: wordsRule("procedural"),
  },
  pooled: {
    order: "score",
    score: sharedWords,
    fit: "skip",
    limit: POOLED_LIMIT,
    quota: POOLED_QUOTA,
    requireRelevance: false,
  },
  touch: false,
  writeBack: false,
};

export const pooledPreset: RetrievalPolicy = { ...perKindPreset, mode: "pooled" };

export const streamPreset: RetrievalPolicy = {
  mode: "pooled",
  score: { ...baseScore, relevance: "embedding" },
  sections: perKindPreset.sections,
  pooled: { order: "score", fit: "skip", limit: 5, quota: null, requireRelevance: false },
  touch: true,
  writeBack: true,
};

export const fullPolicy: RetrievalPolicy = {
  mode: "per-kind",
  score: { ...baseScore, kindDecay: { semantic: 1, procedural: 1, episodic: 0.995 } },
  sections: {
    working: { ...workingRule, quota: FULL_QUOTAS.working },
    semantic: scoreRule("semantic"),
    episodic: scoreRule("episodic"),
    procedural: scoreRule("procedural"),
  },
  pooled: {
    order: "score",
    fit: "skip",
    limit: POOLED_LIMIT,
    quota: FULL_QUOTAS.working + FULL_QUOTAS.semantic + FULL_QUOTAS.episodic + FULL_QUOTAS.procedural,
    requireRelevance: false,
  },
  touch: true,
  writeBack: true,
};

/** Every preset by the name experiment files give it (`policy: full`). */
export const PRESETS = {
  full: fullPolicy,
  stream: streamPreset,
  "per-kind": perKindPreset,
  pooled: pooledPreset,
} as const satisfies Readonly<Record<string, RetrievalPolicy>>;
export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as [PresetName, ...PresetName[]];

// Presets are shared constants; patching one in place would silently change every user of it.
for (const preset of Object.values(PRESETS)) deepFreeze(preset);

function deepFreeze(value: object): void {
  for (const inner of Object.values(value)) {
    if (typeof inner === "object" && inner !== null) deepFreeze(inner);
  }
  Object.freeze(value);
}
