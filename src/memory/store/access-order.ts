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
import { KINDS } from "../types.js";

/** Importance scores in [0, 1] fall into this many groups per kind: the levels 0, 0.1, …, 1. */
export const IMPORTANCE_LEVELS = 11;

export function importanceLevel(importanceScore: number): number {
  return Math.min(IMPORTANCE_LEVELS - 1, Math.max(0, Math.round(importanceScore * (IMPORTANCE_LEVELS - 1))));
}

/** One group's entries, ascending by key: slot, key and slot version when added. */
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

  /** Inserts `count` entries already sorted by key (parallel arrays from `from`). */
  merge(slots: Int32Array, keys: Float64Array, versions: Uint32Array, from: number, count: number): void {
    if (count === 0) return;
    const n = this.length;
    if (n === 0 || keys[from] >= this.keys[n - 1]) {
      this.reserve(n + count);
      this.slots.set(slots.subarray(from, from + count), n);
      this.keys.set(keys.subarray(from, from + count), n);
      this.versions.set(versions.subarray(from, from + count), n);
      this.length = n + count;
      return;
    }
    const out = new AccessRun();
    out.reserve(n + count);
    let i = 0;
    let j = from;
    const end = from + count;
    let o = 0;
    while (i < n || j < end) {
      // Existing entries first on equal keys, so merging never reorders ties among them.
      if (j === end || (i < n && this.keys[i] <= keys[j])) {
        out.slots[o] = this.slots[i];
        out.keys[o] = this.keys[i];
        out.versions[o++] = this.versions[i++];
      } else {
        out.slots[o] = slots[j];
        out.keys[o] = keys[j];
        out.versions[o++] = versions[j++];
      }
    }
    this.slots = out.slots;
    this.keys = out.keys;
    this.versions = out.versions;
    this.length = o;
  }

  /** Drops the entries whose version is no longer their slot's. */
  compact(current: Uint32Array): void {
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
    const size = Math.max(capacity, this.slots.length * 2, 16);
    const slots = new Int32Array(size);
    const keys = new Float64Array(size);
    const versions = new Uint32Array(size);
    slots.set(this.slots.subarray(0, this.length));
    keys.set(this.keys.subarray(0, this.length));
    versions.set(this.versions.subarray(0, this.length));
    this.slots = slots;
    this.keys = keys;
    this.versions = versions;
  }
}

export class AccessOrder {
  /** Run of kind k at importance level l: runs[k · IMPORTANCE_LEVELS + l]. */
  private readonly runs: AccessRun[] = Array.from({ length: KINDS.length * IMPORTANCE_LEVELS }, () => new AccessRun());
  /** Each slot's current version; an entry with another version is dead. */
  private version = new Uint32Array(16);
  private readonly pending = new PendingEntries();

  /** Adds a current memory. */
  add(slot: number, kind: number, importanceScore: number, lastAccessedAt: number): void {
    if (slot >= this.version.length) this.grow(slot + 1);
    const group = kind * IMPORTANCE_LEVELS + importanceLevel(importanceScore);
    const run = this.runs[group];
    if (importanceScore < run.minImportance) run.minImportance = importanceScore;
    if (importanceScore > run.maxImportance) run.maxImportance = importanceScore;
    this.pending.push(slot, lastAccessedAt, this.version[slot], group);
  }

  /** A memory's last access changed. */
  move(slot: number, kind: number, importanceScore: number, lastAccessedAt: number): void {
    this.remove(slot, kind, importanceScore);
    this.pending.push(slot, lastAccessedAt, this.version[slot], kind * IMPORTANCE_LEVELS + importanceLevel(importanceScore));
  }

  /** A memory stopped being current (it was corrected). */
  remove(slot: number, kind: number, importanceScore: number): void {
    this.version[slot]++;
    this.runs[kind * IMPORTANCE_LEVELS + importanceLevel(importanceScore)].dead++;
  }

  /** Whether an entry read from a run is its slot's live one. */
  isLive(slot: number, version: number): boolean {
    return this.version[slot] === version;
  }

  /** The runs of one kind, one per importance level, with every change merged in. */
  runsOf(kind: number): AccessRun[] {
    this.settle();
    return this.runs.slice(kind * IMPORTANCE_LEVELS, (kind + 1) * IMPORTANCE_LEVELS);
  }

  private settle(): void {
    const { pending } = this;
    if (pending.length > 0) {
      const sorted = pending.sortedByGroupAndKey();
      let start = 0;
      while (start < sorted.length) {
        const group = sorted.groups[start];
        let end = start + 1;
        while (end < sorted.length && sorted.groups[end] === group) end++;
        this.runs[group].merge(sorted.slots, sorted.keys, sorted.versions, start, end - start);
        start = end;
      }
      pending.clear();
    }
    for (const run of this.runs) if (run.dead * 2 > run.length) run.compact(this.version);
  }

  private grow(size: number): void {
    const next = new Uint32Array(Math.max(size, this.version.length * 2));
    next.set(this.version);
    this.version = next;
  }
}

/** Entries waiting to be merged into their runs, in arrival order. */
class PendingEntries {
  slots = new Int32Array(16);
  keys = new Float64Array(16);
  versions = new Uint32Array(16);
  groups = new Uint16Array(16);
  length = 0;

  push(slot: number, key: number, version: number, group: number): void {
    if (this.length === this.slots.length) this.reserve(this.length * 2);
    const i = this.length++;
    this.slots[i] = slot;
    this.keys[i] = key;
    this.versions[i] = version;
    this.groups[i] = group;
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy ordered by group, then key, then arrival. */
  sortedByGroupAndKey(): PendingEntries {
    const order = Array.from({ length: this.length }, (_, i) => i);
    const { groups, keys } = this;
    order.sort((a, b) => groups[a] - groups[b] || (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
    const out = new PendingEntries();
    out.reserve(this.length);
    order.forEach((from, to) => {
      out.slots[to] = this.slots[from];
      out.keys[to] = keys[from];
      out.versions[to] = this.versions[from];
      out.groups[to] = groups[from];
    });
    out.length = this.length;
    return out;
  }

  private reserve(capacity: number): void {
    const grow = <T extends Int32Array | Float64Array | Uint32Array | Uint16Array>(a: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(a.subarray(0, this.length) as never);
      return next;
    };
    this.slots = grow(this.slots, (n) => new Int32Array(n));
    this.keys = grow(this.keys, (n) => new Float64Array(n));
    this.versions = grow(this.versions, (n) => new Uint32Array(n));
    this.groups = grow(this.groups, (n) => new Uint16Array(n));
  }
}
