/**
 * The in-memory index of one scope, kept in step with SQLite so retrieval never re-reads rows.
 * Each memory owns a slot; its fields live in typed-array columns that grow by doubling, and all
 * embeddings share one vector column (slot × dim, in chunks; see vector-column.ts).
 */
import { grownArray, newArray } from "../../shared/grown-array.js";
import { renderLine } from "../escape.js";
import { isCandidate } from "../rank/candidates.js";
import { importanceScore } from "../scoring.js";
import { KINDS, type Kind, type Memory } from "../types.js";
import type { Prefaulter } from "../vector/prefault.js";
import { VectorColumn } from "../vector/vector-column.js";
import { AccessOrder } from "./access-order.js";
import { Postings } from "./postings.js";
import { type ColumnArray, type IndexedColumns, MEMORY_ROW } from "./schema.js";

export const KIND_CODE: Readonly<Record<Kind, number>> = Object.fromEntries(
  KINDS.map((k, i) => [k, i]),
) as Record<Kind, number>;

const NO_MODEL = -1;
/** One spare relevance array per backend a retrieval can use at once. */
const MAX_SPARE_SCORES = 3;

/**
 * The typed-array columns the index works out itself, beside the fields of MEMORY_ROW it keeps:
 * `current` is 1 until a correction supersedes the memory (expiry is checked against `now`
 * separately); the word counts, with and without stopwords, are bm25's document lengths;
 * `embeddingModel` is an index into `models`, or NO_MODEL when the memory has no embedding.
 */
const DERIVED = [
  { name: "current", array: Uint8Array, fill: 0 },
  { name: "wordCount", array: Int32Array, fill: 0 },
  { name: "contentWordCount", array: Int32Array, fill: 0 },
  { name: "embeddingModel", array: Int32Array, fill: NO_MODEL },
] as const;

type DerivedColumns = { [C in (typeof DERIVED)[number] as C["name"]]: InstanceType<C["array"]> };

/** A memory field's column: its name, and its value for a memory. */
const KEPT = MEMORY_ROW.flatMap((c) =>
  "index" in c ? [{ name: c.field, value: "indexValue" in c ? c.indexValue : (m: Memory) => m[c.field] as number }] : [],
);

/** Every typed-array column, with what its slots past `size` hold. */
const TYPED: readonly { name: keyof IndexedColumns | keyof DerivedColumns; array: new (length: number) => ColumnArray; fill: number }[] = [
  ...MEMORY_ROW.flatMap((c) => ("index" in c ? [{ name: c.field, array: c.index, fill: 0 }] : [])),
  ...DERIVED,
];

// The typed-array columns, made from MEMORY_ROW and DERIVED rather than declared one by one. Read
// only from outside: grow() replaces them.
export interface ScopeIndex extends Readonly<IndexedColumns>, Readonly<DerivedColumns> {}

export class ScopeIndex {
  size = 0;
  private capacity = 16;

  readonly ids: string[] = [];
  /**
   * Each memory's block line, for the slots rendered so far. The texts themselves stay in SQLite
   * (see readText): only kept memories are rendered, and holding every text as a string would
   * cost more than any typed-array column.
   */
  private readonly lines: string[] = [];
  /**
   * Provenance per slot, so the harness can credit a memory to the turn it came from; null until
   * a memory brings one, so that a scope without any holds no list of nulls (8 MB a million).
   */
  private sources: (string | null)[] | null = null;
  /** All embeddings, slot × dim; null until the first one arrives (which fixes dim). */
  vectors: VectorColumn | null = null;
  readonly models: string[] = [];

  /** Slots of each kind in insertion order, so a per-kind section never visits other kinds. */
  readonly kindSlots: KindSlots[] = KINDS.map(() => new KindSlots());

  readonly postings = new Postings();
  /** Current memories by kind and importance level, ordered by last access within each. */
  readonly accessOrder = new AccessOrder();

  /**
   * Per kind, the smallest line cost of any memory added: a lower bound on every candidate's
   * cost, which tells a section when no later memory can fit its quota.
   */
  private readonly leastTokens = KINDS.map(() => Number.POSITIVE_INFINITY);
  /** Relevance arrays handed back after a retrieval, for the next one (see scoresBuffer). */
  private readonly spareScores: SpareScores[] = [];
  /** id → slot, built on the first lookup (retrieval that locates ids needs it; ingest does not). */
  private slotById: Map<string, number> | null = null;

  /** Running totals over non-superseded slots; expired ones are subtracted per query. */
  private liveCount = 0;
  private liveWords = 0;
  private liveContentWords = 0;
  /** Slots with a finite expiresAt: usually few, scanned per query for exact corpus stats. */
  private readonly expiring: number[] = [];

  constructor(
    readonly scope: string,
    /** Faults in the embedding column's next pages ahead of their writes (see prefault.ts). */
    private readonly prefaulter?: Prefaulter,
    /** The text of the memory in `slot`, as the store holds it; read once, when its line is first rendered. */
    private readonly readText: (slot: number) => string = () => {
      throw new Error(`scope index "${scope}" was made without a source of texts, so it renders no lines`);
    },
  ) {
    const columns = this.columns();
    for (const { name, array, fill } of TYPED) columns[name] = new array(this.capacity).fill(fill);
  }

  /** Adds one memory; see addMany. */
  add(memory: Memory, current: boolean): void {
    this.addMany([memory], [current]);
  }

  /**
   * Adds memories to the next slots, in order; `current[i]` says whether memories[i] is current
   * (not superseded). Each part of the index is filled in its own pass over the batch rather than
   * memory by memory, so that each pass finds its own structures still in cache.
   */
  addMany(memories: readonly Memory[], current: readonly boolean[]): void {
    const first = this.size;
    let capacity = this.capacity;
    while (capacity < first + memories.length) capacity *= 2;
    if (capacity > this.capacity) this.grow(capacity);
    this.size += memories.length;
    const columns = this.columns();
    for (const { name, value } of KEPT) {
      const column = columns[name];
      for (let i = 0; i < memories.length; i++) column[first + i] = value(memories[i]);
    }
    for (let i = 0; i < memories.length; i++) this.setColumns(first + i, memories[i], current[i]);
    for (let i = 0; i < memories.length; i++) {
      const slot = first + i;
      const counts = this.postings.addText(slot, memories[i].text);
      this.wordCount[slot] = counts.words;
      this.contentWordCount[slot] = counts.contentWords;
    }
    for (let i = 0; i < memories.length; i++) {
      const memory = memories[i];
      if (!current[i]) continue;
      const slot = first + i;
      this.countLive(slot, 1);
      this.accessOrder.add(slot, this.kind[slot], importanceScore(memory.importance), memory.lastAccessedAt);
    }
    for (let i = 0; i < memories.length; i++) {
      if (memories[i].embedding !== null) this.setEmbedding(first + i, memories[i]);
    }
    // Batches tend to come in one size: the next is likely as large as this one.
    this.vectors?.expectWrites(this.size, this.size + memories.length);
  }

  /** What the typed-array columns leave: the lists, the orders and the bounds. */
  private setColumns(slot: number, memory: Memory, current: boolean): void {
    this.ids.push(memory.id);
    if (memory.source !== null) (this.sources ??= new Array<string | null>(slot).fill(null))[slot] = memory.source;
    else this.sources?.push(null);
    const kind = this.kind[slot];
    this.kindSlots[kind].push(slot);
    this.current[slot] = current ? 1 : 0;
    this.tokens[slot] = memory.tokens;
    if (memory.tokens < this.leastTokens[kind]) this.leastTokens[kind] = memory.tokens;
    this.slotById?.set(memory.id, slot);
    if (memory.expiresAt !== null) this.expiring.push(slot);
  }

  supersede(slot: number): void {
    if (this.current[slot] === 0) return;
    this.current[slot] = 0;
    this.countLive(slot, -1);
    this.accessOrder.remove(slot, this.kind[slot], importanceScore(this.importance[slot]));
  }

  /** Sets the last access of `slot` to `now`, keeping the access order in step. */
  touch(slot: number, now: number): void {
    if (this.lastAccessedAt[slot] === now) return;
    this.lastAccessedAt[slot] = now;
    if (this.current[slot] === 1) {
      this.accessOrder.move(slot, this.kind[slot], importanceScore(this.importance[slot]), now);
    }
  }

  /** The source of the memory in `slot`: the turn it came from, or null. */
  sourceOf(slot: number): string | null {
    return this.sources?.[slot] ?? null;
  }

  /** The slot of memory `id`, or undefined when this scope has no such memory. */
  slotOf(id: string): number | undefined {
    if (this.slotById === null) this.slotById = new Map(this.ids.map((memoryId, slot) => [memoryId, slot]));
    return this.slotById.get(id);
  }

  /**
   * An array of at least `size` relevance values for one query: zeroed, or as a former query left
   * it when `overwrites` (the caller writes every slot below the size itself, as the embedding
   * backend does, so zeroing would be a wasted pass over the scope). Allocating and zeroing a
   * fresh one per query costs page faults that grow with the scope; hand it back with
   * releaseScores once ranked.
   */
  scoresBuffer(overwrites = false): Float64Array {
    const spares = this.spareScores;
    // Spares too short for the scope as it is now are dropped.
    for (let i = spares.length - 1; i >= 0; i--) if (spares[i].values.length < this.size) spares.splice(i, 1);
    // A spare that needs no zeroing first: one left with values for a caller that overwrites them, a clean one otherwise.
    const [taken] = spares.splice(Math.max(0, spares.findIndex((spare) => (spare.dirty > 0) === overwrites)), 1);
    if (taken === undefined) return newArray(Float64Array, this.capacity);
    if (!overwrites) taken.values.fill(0, 0, taken.dirty);
    return taken.values;
  }

  /**
   * Takes back a scoresBuffer array: the slots in `written` are zeroed now; when `written` is null,
   * any slot up to the size may hold a value, and zeroing them waits for a caller that needs it
   * (nothing is written past the size, and zeroing the room beyond would make it resident).
   */
  releaseScores(values: Float64Array, written: Int32Array | null): void {
    if (written !== null) for (let i = 0; i < written.length; i++) values[written[i]] = 0;
    if (this.spareScores.length < MAX_SPARE_SCORES) this.spareScores.push({ values, dirty: written === null ? this.size : 0 });
  }

  /** A lower bound on the line cost of any memory of `kind` (any kind when null). */
  minTokens(kind: number | null): number {
    return kind === null ? Math.min(...this.leastTokens) : this.leastTokens[kind];
  }

  isCurrent(slot: number, now: number): boolean {
    return isCandidate(this, slot, now);
  }

  /** Document count and total words over the memories current at `now`, for bm25. */
  corpusStats(now: number, stopwords: boolean): { count: number; words: number } {
    let count = this.liveCount;
    let words = stopwords ? this.liveContentWords : this.liveWords;
    for (const slot of this.expiring) {
      if (this.current[slot] === 1 && this.expiresAt[slot] <= now) {
        count--;
        words -= stopwords ? this.contentWordCount[slot] : this.wordCount[slot];
      }
    }
    return { count, words };
  }

  /** Embedding dimension of this scope; 0 until a memory with an embedding is added. */
  get dim(): number {
    return this.vectors?.dim ?? 0;
  }

  /**
   * A copy of the embeddings, slot × dim (empty when there are none), for inspecting an index;
   * retrieval reads the column itself.
   */
  get embeddings(): Float32Array {
    return this.vectors?.copy(this.size) ?? new Float32Array(0);
  }

  /** Line of `slot` as rendered in a block. */
  line(slot: number): string {
    // Rendered once, when first kept: a sweep keeps the same memories under many policies.
    return (this.lines[slot] ??= renderLine(this.readText(slot)));
  }

  private countLive(slot: number, sign: 1 | -1): void {
    this.liveCount += sign;
    this.liveWords += sign * this.wordCount[slot];
    this.liveContentWords += sign * this.contentWordCount[slot];
  }

  private setEmbedding(slot: number, memory: Memory): void {
    const vector = memory.embedding as Float32Array;
    if (this.vectors === null) {
      this.vectors = new VectorColumn(vector.length, this.capacity, { prefaulter: this.prefaulter });
    } else if (vector.length !== this.vectors.dim) {
      throw new Error(
        `memory ${memory.id}: embedding has ${vector.length} dimensions but scope ` +
          `"${this.scope}" stores ${this.vectors.dim}-dimensional embeddings`,
      );
    }
    this.vectors.set(slot, vector);
    // A vector without a recorded model matches no query model, so using it is an error.
    const model = memory.embeddingModel ?? "(unrecorded model)";
    let code = this.models.indexOf(model);
    if (code === -1) code = this.models.push(model) - 1;
    this.embeddingModel[slot] = code;
  }

  private grow(capacity: number): void {
    const columns = this.columns();
    for (const { name, array, fill } of TYPED) {
      const previous = columns[name];
      // The room past the old length comes zeroed in pages the system hands out untouched:
      // filling it with zeros again would make all of it resident before any slot is used.
      const next = grownArray(previous, capacity);
      if (fill !== 0) next.fill(fill, previous.length);
      columns[name] = next;
    }
    this.vectors?.grow(capacity);
    this.capacity = capacity;
  }

  /** The typed-array columns, by name, as this class alone may write them. */
  private columns(): Record<(typeof TYPED)[number]["name"], ColumnArray> {
    return this as unknown as Record<(typeof TYPED)[number]["name"], ColumnArray>;
  }
}

/** A relevance array handed back, and how many slots from its start may hold values (0: it is all zeros). */
interface SpareScores {
  values: Float64Array;
  dirty: number;
}

/** An append-only list of slots that grows by doubling. */
export class KindSlots {
  slots = new Int32Array(16);
  length = 0;

  push(slot: number): void {
    if (this.length === this.slots.length) this.slots = grownArray(this.slots, this.length * 2);
    this.slots[this.length++] = slot;
  }
}
