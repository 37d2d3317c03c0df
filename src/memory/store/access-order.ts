/**
 * The current memories of one scope, grouped by kind and importance level and ordered by last
 * access within each group. A memory that matches no query word enters a ranking only through
 * recency and importance, and both are fixed within a group once its last access is known, so
 * the best score any unvisited memory of a group can reach is read off the group's next entry:
 * ranking walks groups from their best end and stops when no group can beat what it holds.
 *
 * Keys change (a touch moves a memory's last access to now), so a change adds a new entry and
 * leaves the old one behind, dead. Each entry carries the version its slot had when it was added;
 * only the entry with the slot's current version is live. Additions gather unsorted and are
 * merged in when the order is next read: by appending when they sort after every entry (touches
 * at a later now, memories written now), by one merge pass otherwise. Dead entries are dropped
 * once they outnumber the live ones.
 */
import { grownArray } from "../../shared/grown-array.js";
import { KINDS } from "../types.js";

/** Importance scores in [0, 1] fall into this many groups per kind: the levels 0, 0.1, …, 1. */
export const IMPORTANCE_LEVELS = 11;

export function importanceLevel(importanceScore: number): number {
  return Math.min(IMPORTANCE_LEVELS - 1, Math.max(0, Math.round(importanceScore * (IMPORTANCE_LEVELS - 1))));
}

/** Parallel arrays of entries: slot, key (last access) and slot version when added. */
interface Entries {
  slots: Int32Array;
  keys: Float64Array;
  versions: Uint32Array;
}

function entries(capacity: number): Entries {
  return { slots: new Int32Array(capacity), keys: new Float64Array(capacity), versions: new Uint32Array(capacity) };
}

/** One group's entries, ascending by key. */
export class AccessRun {
  slots = new Int32Array(0);
  keys = new Float64Array(0);
  versions = new Uint32Array(0);
  length = 0;
  /** Entries known to be dead (in the run or still pending). */
  dead = 0;
  /** The smallest and largest importance score ever added: bounds for every entry. */
  minImportance = Number.POSITIVE_INFINITY;
  maxImportance = Number.NEGATIVE_INFINITY;
  private pending = { slots: [] as number[], keys: [] as number[], versions: [] as number[] };

  add(slot: number, key: number, version: number): void {
    this.pending.slots.push(slot);
    this.pending.keys.push(key);
    this.pending.versions.push(version);
  }

  /** Merges the pending entries in, and drops dead ones when they outnumber the live. */
  settle(current: Uint32Array): void {
    const { slots, keys, versions } = this.pending;
    if (slots.length > 0) {
      // By key, then arrival (the sort is stable), so that merging never reorders equal keys.
      const order = slots.map((_, i) => i).sort((a, b) => keys[a] - keys[b]);
      const added = entries(order.length);
      order.forEach((from, to) => {
        added.slots[to] = slots[from];
        added.keys[to] = keys[from];
        added.versions[to] = versions[from];
      });
      this.merge(added);
      this.pending = { slots: [], keys: [], versions: [] };
    }
    if (this.dead * 2 > this.length) this.compact(current);
  }

  /**
   * Merges from the back into room reserved past the run's end, so that entries sorting after
   * every existing one are only appended, and the existing entries before the first addition
   * are never moved.
   */
  private merge(added: Entries): void {
    const n = this.length;
    const count = added.slots.length;
    this.reserve(n + count);
    let i = n - 1;
    let j = count - 1;
    for (let o = n + count - 1; j >= 0; o--) {
      // Existing entries first on equal keys, so an addition goes after them.
      const fromRun = i >= 0 && this.keys[i] > added.keys[j];
      const source: Entries = fromRun ? this : added;
      const at = fromRun ? i-- : j--;
      this.slots[o] = source.slots[at];
      this.keys[o] = source.keys[at];
      this.versions[o] = source.versions[at];
    }
    this.length = n + count;
  }

  private compact(current: Uint32Array): void {
    let o = 0;
    for (let i = 0; i < this.length; i++) {
      const slot = this.slots[i];
      if (this.versions[i] !== current[slot]) continue;
      this.slots[o] = slot;
      this.keys[o] = this.keys[i];
      this.versions[o++] = this.versions[i];
    }
    this.length = o;
    this.dead = 0;
  }

  private reserve(capacity: number): void {
    if (capacity <= this.slots.length) return;
    const grown = Math.max(capacity, this.slots.length * 2, 16);
    this.slots = grownArray(this.slots, grown);
    this.keys = grownArray(this.keys, grown);
    this.versions = grownArray(this.versions, grown);
  }
}

export class AccessOrder {
  /** Run of kind k at importance level l: runs[k · IMPORTANCE_LEVELS + l]. */
  private readonly runs: AccessRun[] = Array.from({ length: KINDS.length * IMPORTANCE_LEVELS }, () => new AccessRun());
  /** Each slot's current version; an entry with another version is dead. */
  private version = new Uint32Array(16);

  /** Adds a current memory. */
  add(slot: number, kind: number, importanceScore: number, lastAccessedAt: number): void {
    if (slot >= this.version.length) {
      this.version = grownArray(this.version, Math.max(slot + 1, this.version.length * 2));
    }
    const run = this.runOf(kind, importanceScore);
    run.minImportance = Math.min(run.minImportance, importanceScore);
    run.maxImportance = Math.max(run.maxImportance, importanceScore);
    run.add(slot, lastAccessedAt, this.version[slot]);
  }

  /** A memory's last access changed. */
  move(slot: number, kind: number, importanceScore: number, lastAccessedAt: number): void {
    this.remove(slot, kind, importanceScore);
    this.runOf(kind, importanceScore).add(slot, lastAccessedAt, this.version[slot]);
  }

  /** A memory stopped being current (it was corrected). */
  remove(slot: number, kind: number, importanceScore: number): void {
    this.version[slot]++;
    this.runOf(kind, importanceScore).dead++;
  }

  /** Whether an entry read from a run is its slot's live one. */
  isLive(slot: number, version: number): boolean {
    return this.version[slot] === version;
  }

  /** The runs of one kind, one per importance level, with every change merged in. */
  runsOf(kind: number): AccessRun[] {
    const runs = this.runs.slice(kind * IMPORTANCE_LEVELS, (kind + 1) * IMPORTANCE_LEVELS);
    for (const run of runs) run.settle(this.version);
    return runs;
  }

  private runOf(kind: number, importanceScore: number): AccessRun {
    return this.runs[kind * IMPORTANCE_LEVELS + importanceLevel(importanceScore)];
  }
}
