/**
 * The baselines users expect beside any memory system, as systems through the contract:
 *
 * - `recent-window`: the most recent memories that fit the budget, newest first, the window a
 *   long-context agent keeps. It ranks nothing and filters nothing: a corrected fact stays in the
 *   window until it scrolls out.
 * - `full-context`: every memory written, in the order it happened, whatever the budget: the
 *   whole history in the prompt. Its coverage is the ceiling and its token count the price;
 *   ranks mean only "how early in the transcript".
 */
import type { MemorySystem, Retrieved, SystemMemory, SystemQuery, SystemScope } from "./contract.js";

export const BASELINE_SYSTEMS = {
  "recent-window": {
    note: "the most recent memories that fit the budget, newest first: the window a long-context agent keeps",
    create: (): MemorySystem => historySystem(recentWindow),
  },
  "full-context": {
    note: "every memory written, oldest first, whatever the budget: the whole history in the prompt, its cost beside its coverage",
    create: (): MemorySystem => historySystem(fullContext),
  },
} as const;
export type BaselineName = keyof typeof BASELINE_SYSTEMS;
export const BASELINE_NAMES = Object.keys(BASELINE_SYSTEMS) as BaselineName[];

type Choose = (history: readonly SystemMemory[], query: SystemQuery) => string[];

function historySystem(choose: Choose): MemorySystem {
  return {
    async open(): Promise<SystemScope> {
      const history: SystemMemory[] = [];
      return {
        async write(memories) {
          history.push(...memories);
        },
        async retrieve(query): Promise<Retrieved> {
          return { ids: choose(history, query) };
        },
        async close() {
          history.length = 0;
        },
      };
    },
  };
}

/** Written order, kept stable among memories of one moment. */
function chronological(history: readonly SystemMemory[]): SystemMemory[] {
  return history.map((m, i) => ({ m, i })).sort((a, b) => a.m.createdAt - b.m.createdAt || a.i - b.i).map(({ m }) => m);
}

function recentWindow(history: readonly SystemMemory[], query: SystemQuery): string[] {
  const ids: string[] = [];
  let used = 0;
  for (const memory of chronological(history).reverse()) {
    if (query.budget !== null && used + memory.tokens > query.budget) break;
    used += memory.tokens;
    ids.push(memory.id);
  }
  return ids;
}

function fullContext(history: readonly SystemMemory[]): string[] {
  return chronological(history).map((m) => m.id);
}
