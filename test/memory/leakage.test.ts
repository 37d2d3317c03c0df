/** Corrected and expired facts never come back, whatever the preset or relevance backend. */
import { describe, expect, it } from "vitest";
import { PRESET_NAMES, PRESETS } from "../../src/memory/presets.js";
import { retrieve } from "../../src/memory/retrieve.js";
import { KINDS, type RelevanceBackendName, type RetrievalPolicy } from "../../src/memory/types.js";
import { HOUR, memoryStore, T0 } from "./helpers.js";

const BACKENDS: RelevanceBackendName[] = ["words", "bm25", "embedding"];
const model = "leak-embedder";

function withBackend(policy: RetrievalPolicy, relevance: RelevanceBackendName): RetrievalPolicy {
  const rule = <T extends { score?: object }>(r: T): T => ({ ...r, score: { ...r.score, relevance } });
  return {
    ...policy,
    score: { ...policy.score, relevance },
    sections: Object.fromEntries(KINDS.map((k) => [k, rule(policy.sections[k])])) as RetrievalPolicy["sections"],
    pooled: rule(policy.pooled),
  };
}

describe.each(PRESET_NAMES)("preset %s", (name) => {
  it.each(BACKENDS)("never returns corrected or expired memories with %s relevance", (backend) => {
    const store = memoryStore();
    const now = T0;
    const vector = { model, vector: [1, 0, 0] };
    for (const kind of KINDS) {
      // The stale versions are the best matches on every signal: most important, freshest, exact text.
      store.remember({ id: `${kind}-old`, scope: "u", kind, text: "Ana lives in Porto", importance: 10, createdAt: now, lastAccessedAt: now, embedding: vector });
      store.correct(`${kind}-old`, { id: `${kind}-new`, scope: "u", kind, text: "moved elsewhere", importance: 1, createdAt: now - HOUR, lastAccessedAt: now - 100 * HOUR, embedding: { model, vector: [0, 1, 0] } });
      store.remember({ id: `${kind}-expired`, scope: "u", kind, text: "Ana lives in Porto", importance: 10, createdAt: now, expiresAt: now, embedding: vector });
      store.remember({ id: `${kind}-expiring`, scope: "u", kind, text: "Ana lives in Porto", importance: 10, createdAt: now, expiresAt: now + 1, embedding: vector });
    }
    const policy = withBackend(PRESETS[name], backend);
    const block = retrieve(store, {
      scope: "u",
      query: { text: "where does Ana live Porto", embedding: vector },
      now,
      policy,
    });
    const seen = block.sections.flatMap((s) => [...s.kept, ...s.dropped, ...s.ranked.map((r) => r.id)]);
    expect(seen.some((id) => id.endsWith("-expiring"))).toBe(true);
    expect(seen.filter((id) => id.endsWith("-old") || id.endsWith("-expired"))).toEqual([]);
    expect(block.text).not.toContain("-old");
    const later = retrieve(store, { scope: "u", query: { text: "Porto", embedding: vector }, now: now + 1, policy });
    expect(later.sections.flatMap((s) => s.ranked.map((r) => r.id)).filter((id) => !id.endsWith("-new"))).toEqual([]);
  });
});
