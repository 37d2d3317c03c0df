import { describe, expect, it } from "vitest";
import { fullPolicy, HOUR_MS, type RetrievalPolicy, type TokenCounter } from "../../../src/memory/index.js";
import { findAblation } from "../../../src/harness/policy/ablations.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";
import type { SystemMemory, SystemQuery } from "../../../src/harness/systems/contract.js";
import { type EmbeddingSource, type NamedPolicy, NO_EMBEDDINGS, RecollectScope, recollectSystem } from "../../../src/harness/systems/recollect.js";

/** Counts words, so quotas can be reasoned about by hand. */
const words: TokenCounter = { count: (text) => text.split(/\s+/).filter(Boolean).length };

const T0 = Date.UTC(2024, 0, 1);
const memory = (id: string, kind: SystemMemory["kind"], text: string, hour: number, extra: Partial<SystemMemory> = {}): SystemMemory => ({
  id,
  kind,
  text,
  createdAt: T0 + hour * HOUR_MS,
  occurredAt: kind === "episodic" ? T0 + hour * HOUR_MS : null,
  supersedes: null,
  expiresAt: null,
  source: null,
  tokens: words.count(text),
  ...extra,
});

const MEMORIES: SystemMemory[] = [
  memory("home-old", "semantic", "The user lives in Paris.", 0, { importance: 6 }),
  memory("tea", "semantic", "The user drinks green tea every morning.", 1, { importance: 5 }),
  memory("code", "working", "Temporary door code 1234.", 1, { expiresAt: T0 + 3 * HOUR_MS }),
  memory("walk", "episodic", "We walked to the lake where the user lives now.", 2),
  memory("home", "semantic", "The user now lives in Berlin.", 3, { supersedes: "home-old", importance: 7 }),
  memory("kettle", "procedural", "To make tea, boil the kettle first.", 4),
  ...Array.from({ length: 12 }, (_, i) => memory(`note-${i}`, "semantic", `Note ${i}: the office opens at nine.`, 5 + i)),
];

const question = (query: string, hours: number, extra: Partial<SystemQuery> = {}): SystemQuery => ({ query, now: T0 + hours * HOUR_MS, budget: null, ...extra });

async function scopeUnder(policy: RetrievalPolicy, embeddings: EmbeddingSource = NO_EMBEDDINGS): Promise<RecollectScope> {
  const scope = new RecollectScope("user", { policy, tokenizer: words, embeddings });
  await scope.write(MEMORIES);
  return scope;
}

const ablation = (name: string, base: RetrievalPolicy = fullPolicy) => applyPatch(base, findAblation(name)!.patch(base));
const withoutTouch = (policy: RetrievalPolicy) => ({ ...policy, touch: false });

describe("recollectSystem", () => {
  it("reports where memories rank however deep (locates), and opens a fresh, empty scope each time", async () => {
    const system = recollectSystem({ policy: fullPolicy, tokenizer: words });
    expect(system.locates).toBe(true);
    const first = await system.open("user");
    await first.write(MEMORIES);
    const second = await system.open("user");
    expect((await second.retrieve(question("Where the user lives", 20))).ids).toEqual([]);
    expect((await first.retrieve(question("Where the user lives", 20))).ids.length).toBeGreaterThan(0);
    await first.close();
    await second.close();
  });
});

describe("RecollectScope", () => {
  it("writes into its store and retrieves through the one ranker: ids, the block, and a section per kind", async () => {
    const scope = await scopeUnder(fullPolicy);
    const reply = await scope.retrieve(question("Where the user lives", 20));
    expect(reply.ids).toContain("home");
    expect(reply.sections!.map((s) => s.name).sort()).toEqual(["episodic", "procedural", "semantic", "working"]);
    expect(reply.sections!.flatMap((s) => s.kept)).toEqual(reply.ids);
    expect(reply.block).toContain("The user now lives in Berlin.");
    const semantic = reply.sections!.find((s) => s.name === "semantic")!;
    expect(semantic.weights).toEqual([...fullPolicy.score.weights]);
    expect(semantic.ranked[0]).toMatchObject({ rank: 1 });
    for (const entry of semantic.ranked) expect(entry.total).toBeCloseTo(entry.rel! * 1 + entry.rec! + entry.imp!, 6);
    await scope.close();
  });

  it("never returns a corrected memory, nor one that has expired", async () => {
    const scope = await scopeUnder(fullPolicy);
    const before = await scope.retrieve(question("What is the temporary door code? Where the user lives", 2));
    expect(before.ids).toContain("code");
    expect(before.ids).not.toContain("home-old");
    const after = await scope.retrieve(question("What is the temporary door code?", 4));
    expect(after.ids).not.toContain("code");
  });

  it("respects the section quotas of its policy", async () => {
    const scope = await scopeUnder(fullPolicy);
    const reply = await scope.retrieve(question("When the office opens, and where the user lives", 30));
    const cost = new Map(MEMORIES.map((m) => [m.id, m.tokens]));
    for (const section of reply.sections!) {
      const quota = fullPolicy.sections[section.name as keyof typeof fullPolicy.sections].quota!;
      expect(section.kept.reduce((sum, id) => sum + cost.get(id)!, 0)).toBeLessThanOrEqual(quota);
    }
  });

  it("ranks located memories however deep they place, and only those beyond what it keeps", async () => {
    const scope = await scopeUnder(withoutTouch(fullPolicy));
    const plain = await scope.retrieve(question("When the office opens, and where the user lives", 30));
    const semantic = (r: typeof plain) => r.sections!.find((s) => s.name === "semantic")!;
    expect(semantic(plain).kept).not.toContain("tea");
    const located = await scope.retrieve(question("When the office opens, and where the user lives", 30, { locate: { ids: ["tea"], neighbours: 0 } }));
    const tea = semantic(located).ranked.find((r) => r.id === "tea");
    expect(tea?.rank).toBeGreaterThan(semantic(located).kept.length);
    expect(located.ids).toEqual(plain.ids);
  });

  it("asks its embedding source for each memory it writes and each question it ranks", async () => {
    const asked: string[] = [];
    const source: EmbeddingSource = {
      memory: (m) => (asked.push(`memory ${m.id}`), null),
      query: (text) => void asked.push(`query ${text}`),
    };
    const scope = await scopeUnder(fullPolicy, source);
    await scope.retrieve(question("Tea?", 10));
    expect(asked).toEqual([...MEMORIES.map((m) => `memory ${m.id}`), "query Tea?"]);
  });

  describe("retrieveUnder", () => {
    const policies: NamedPolicy[] = [
      { name: "no-touch", policy: ablation("no-touch") },
      { name: "relevance-only", policy: withoutTouch(ablation("relevance-only")) },
      { name: "recency-only", policy: withoutTouch(ablation("recency-only")) },
      { name: "bm25", policy: withoutTouch(ablation("bm25")) },
      { name: "pooled", policy: withoutTouch(ablation("pooled")) },
    ];
    const asks = [question("Where the user lives", 20), question("How do I make tea?", 40, { locate: { ids: ["tea", "walk", "note-3"], neighbours: 2 } })];

    it("gives, for each policy, exactly what retrieve gives under that policy alone", async () => {
      const shared = await scopeUnder(policies[0]!.policy);
      for (const ask of asks) {
        const together = shared.retrieveUnder(ask, policies);
        expect(together).toHaveLength(policies.length);
        for (const [i, { name, policy }] of policies.entries()) {
          const alone = await (await scopeUnder(policy)).retrieve(ask);
          expect(together[i], `${name} at "${ask.query}"`).toEqual(alone);
        }
      }
      // The policies differ, so the equality above is not an accident of one ranking.
      const [noTouch, relevance, recency] = shared.retrieveUnder(asks[0]!, policies);
      expect(new Set([JSON.stringify(noTouch), JSON.stringify(relevance), JSON.stringify(recency)]).size).toBe(3);
    });

    it("leaves the store as it found it: asking again gives the same", async () => {
      const shared = await scopeUnder(policies[0]!.policy);
      const first = shared.retrieveUnder(asks[1]!, policies);
      expect(shared.retrieveUnder(asks[1]!, policies)).toEqual(first);
    });

    it("serves policies that rank by embedding, from a source that makes a new vector at every call", async () => {
      // Letters counted: a vector of the text's own, made afresh each time, as the runner's source does.
      const vectorOf = (text: string) => ({ model: "test:letters", vector: Float32Array.from("aeiourstln", (c) => text.split(c).length - 1) });
      const source: EmbeddingSource = { memory: (m) => vectorOf(m.text), query: (text) => vectorOf(text) };
      const embedding: NamedPolicy[] = [
        { name: "relevance-only-embedding", policy: withoutTouch(ablation("relevance-only-embedding")) },
        { name: "relevance-only-hybrid", policy: withoutTouch(ablation("relevance-only-hybrid")) },
        { name: "bm25", policy: withoutTouch(ablation("bm25")) },
      ];
      const shared = await scopeUnder(embedding[0]!.policy, source);
      const together = shared.retrieveUnder(asks[0]!, embedding);
      for (const [i, { name, policy }] of embedding.entries()) {
        expect(together[i], name).toEqual(await (await scopeUnder(policy, source)).retrieve(asks[0]!));
      }
    });

    it("refuses a policy that touches, since a touch changes the state the next policy ranks", async () => {
      const shared = await scopeUnder(policies[0]!.policy);
      expect(() => shared.retrieveUnder(asks[0]!, [...policies, { name: "full", policy: fullPolicy }])).toThrow(
        'policy "full" touches: one store state cannot serve it beside others',
      );
    });
  });
});
