/**
 * What the harness holds every system to, whoever wrote it: a call finishes within its timeout,
 * and retrieval answers with ids of memories the scope was given, each once, in a well-formed
 * reply. A system that breaks a rule fails its trial with a SystemError saying which.
 */
import { type RankedEntry, type RankedSection, SystemError, type Retrieved, type SystemCall } from "./contract.js";

/**
 * `work` within `timeoutMs` (no limit when undefined), else a SystemError for `call`. With
 * `foreign` (a user's module, whose code runs in this thread), whatever it throws is its failure
 * too; recollect's own errors stay bugs, with their stack traces.
 */
export async function withinTimeout<T>(call: SystemCall, timeoutMs: number | undefined, foreign: boolean, work: () => Promise<T>): Promise<T> {
  const running = (async () => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SystemError || !foreign) throw error;
      throw new SystemError(call, `failed (${(error as Error)?.message ?? String(error)})`, { cause: error });
    }
  })();
  if (timeoutMs === undefined) return running;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SystemError(call, `no reply within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The ids a scope was given, and their line costs, to check and price what retrieval returns. */
export class IdLedger {
  private readonly tokens = new Map<string, number>();

  add(memories: readonly { id: string; tokens: number }[]): void {
    for (const m of memories) this.tokens.set(m.id, m.tokens);
  }

  /** The line cost of a known id. */
  cost(id: string): number {
    return this.tokens.get(id) ?? 0;
  }

  /**
   * `reply` as a Retrieved, or a SystemError naming what is wrong with it. Every ask of every
   * trial passes here, sweeps' points included, so the checks walk the lists in place rather than
   * building joined copies of them.
   */
  check(reply: unknown): Retrieved {
    if (typeof reply !== "object" || reply === null) throw badReply("returned no result object");
    const { ids, block, sections } = reply as Partial<Retrieved>;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) throw badReply("returned ids that are not a list of strings");
    if (block !== undefined && typeof block !== "string") throw badReply("returned a block that is not a string");
    const unknown = ids.filter((id) => !this.tokens.has(id));
    if (unknown.length > 0) {
      const shown = unknown.slice(0, 3).map((id) => JSON.stringify(id)).join(", ");
      throw badReply(`returned ${unknown.length === 1 ? "an id" : `${unknown.length} ids`} it was never given: ${shown}${unknown.length > 3 ? ", …" : ""}`);
    }
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) throw badReply(`returned the id ${JSON.stringify(id)} twice`);
      seen.add(id);
    }
    if (sections !== undefined) {
      if (!wellFormedSections(sections)) throw badReply("reported sections that are not a list of { name, ranked: [{ id, rank }], kept: [ids] }");
      if (!keptAre(sections, ids)) throw badReply("reported sections whose kept ids are not the ids it returned");
      for (const section of sections) {
        for (const { id } of section.ranked) {
          if (!this.tokens.has(id)) throw badReply(`ranked the id ${JSON.stringify(id)}, which it was never given`);
        }
      }
    }
    return reply as Retrieved;
  }
}

/** Whether the sections' kept lists, joined in order, are `ids`. */
function keptAre(sections: readonly RankedSection[], ids: readonly string[]): boolean {
  let at = 0;
  for (const { kept } of sections) {
    for (const id of kept) {
      if (id !== ids[at++]) return false;
    }
  }
  return at === ids.length;
}

/** Whether a module's `sections` has the shape the trial reads, so a malformed one fails as the system's error. */
function wellFormedSections(sections: unknown): boolean {
  return (
    Array.isArray(sections) &&
    sections.every((s: unknown) => {
      if (typeof s !== "object" || s === null) return false;
      const { name, ranked, kept } = s as Partial<RankedSection>;
      return typeof name === "string" && Array.isArray(ranked) && ranked.every(isRankedEntry) && isStringList(kept);
    })
  );
}

const badReply = (problem: string) => new SystemError("retrieve", problem);

const isStringList = (xs: unknown) => Array.isArray(xs) && xs.every((x) => typeof x === "string");

const isRankedEntry = (e: unknown) => typeof e === "object" && e !== null && typeof (e as RankedEntry).id === "string" && typeof (e as RankedEntry).rank === "number";
