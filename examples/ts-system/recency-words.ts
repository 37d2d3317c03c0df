/**
 * A memory system as a TypeScript module: recollect loads it in each worker thread and calls its
 * default export with the experiment's `options` to make the system. This one keeps every current
 * memory of a scope and ranks them by the share of the question's words they contain, the newer
 * first among equals, then returns the best that fit the budget.
 *
 * Run it with: npm run experiment -- examples/ts-system/experiment.yaml --out my-results
 */
import type { MemorySystem, Retrieved, SystemMemory, SystemQuery } from "../../src/harness/systems/index.js";

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export default function createSystem(options: Record<string, unknown>): MemorySystem {
  // How much of its budget the system may spend; options come from the experiment file.
  const share = typeof options.budgetShare === "number" ? options.budgetShare : 1;
  return {
    async open() {
      const memories = new Map<string, SystemMemory>();
      const corrected = new Set<string>();
      return {
        async write(batch: readonly SystemMemory[]) {
          for (const memory of batch) {
            memories.set(memory.id, memory);
            if (memory.supersedes !== null) corrected.add(memory.supersedes);
          }
        },
        async retrieve({ query, now, budget }: SystemQuery): Promise<Retrieved> {
          const asked = words(query);
          const scored = [...memories.values()]
            .filter((m) => !corrected.has(m.id) && (m.expiresAt === null || m.expiresAt > now))
            .map((m) => {
              const own = words(m.text);
              const shared = [...asked].filter((w) => own.has(w)).length;
              return { m, score: asked.size === 0 ? 0 : shared / asked.size };
            })
            .filter((s) => s.score > 0)
            .sort((a, b) => b.score - a.score || b.m.createdAt - a.m.createdAt || (a.m.id < b.m.id ? -1 : 1));
          const limit = budget === null ? Number.POSITIVE_INFINITY : budget * share;
          const ids: string[] = [];
          let used = 0;
          for (const { m } of scored) {
            if (used + m.tokens > limit) continue;
            ids.push(m.id);
            used += m.tokens;
          }
          return { ids };
        },
        async close() {
          memories.clear();
        },
      };
    },
  };
}
