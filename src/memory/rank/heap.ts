/**
 * A bounded binary heap keeping the best `capacity` items offered under an order. Items are
 * numbers (positions in the caller's arrays), so the order reads its keys from there and the heap
 * allocates nothing per item. The worst kept item sits at the root: deciding whether a newcomer
 * enters costs one comparison, replacing the worst costs O(log capacity).
 */

/** `a` before `b`? A strict total order over the items. */
export type Precedes = (a: number, b: number) => boolean;

/** `precedes` as a sort comparator. */
export function comparator(precedes: Precedes): (a: number, b: number) => number {
  return (a, b) => (a === b ? 0 : precedes(a, b) ? -1 : 1);
}

export class BoundedHeap {
  private readonly items: number[] = [];

  constructor(
    readonly capacity: number,
    private readonly precedes: Precedes,
  ) {}

  get length(): number {
    return this.items.length;
  }

  get full(): boolean {
    return !(this.items.length < this.capacity);
  }

  /** The worst kept item; undefined when the heap is empty. */
  get worst(): number {
    return this.items[0];
  }

  /**
   * Keeps `item` when there is room or when it precedes the worst kept item, which it replaces.
   * Returns the item left out (the one evicted, or `item` itself), or null when nothing was: the
   * caller can reuse that item's storage.
   */
  offer(item: number): number | null {
    if (!this.full) {
      this.push(item);
      return null;
    }
    if (this.items.length > 0 && this.precedes(item, this.items[0])) return this.replaceWorst(item);
    return item;
  }

  /** Adds `item`; only while the heap is not full. */
  push(item: number): void {
    const { items, precedes } = this;
    if (this.full) throw new Error("BoundedHeap.push: the heap is full");
    // Move the hole up past every parent that precedes `item` (a better item below a worse one).
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!precedes(items[parent], item)) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = item;
  }

  /** Puts `item` in place of the worst kept item and returns that one; only on a non-empty heap. */
  replaceWorst(item: number): number {
    const { items, precedes } = this;
    const n = items.length;
    if (n === 0) throw new Error("BoundedHeap.replaceWorst: the heap is empty");
    const evicted = items[0];
    // Move the hole down past every child worse than `item`, always towards the worse child.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const worse = r < n && precedes(items[l], items[r]) ? r : l;
      if (!precedes(item, items[worse])) break;
      items[i] = items[worse];
      i = worse;
    }
    items[i] = item;
    return evicted;
  }

  /** The kept items, best first (a new array; the heap is unchanged). */
  sorted(): number[] {
    return this.items.slice().sort(comparator(this.precedes));
  }
}
