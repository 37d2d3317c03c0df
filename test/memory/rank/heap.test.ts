import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BoundedHeap, comparator, type Precedes } from "../../../src/memory/rank/heap.js";

/** Larger key first, ties broken by smaller item: a strict total order over item indices. */
const byKey =
  (keys: readonly number[]): Precedes =>
  (a, b) =>
    keys[a] !== keys[b] ? keys[a] > keys[b] : a < b;

const fullOrder = (keys: readonly number[]) => keys.map((_, i) => i).sort(comparator(byKey(keys)));

describe("comparator", () => {
  it("turns a precedence into a sort comparator that is 0 only for the same item", () => {
    const compare = comparator(byKey([1, 5, 5]));
    expect(compare(1, 0)).toBe(-1);
    expect(compare(0, 1)).toBe(1);
    expect(compare(1, 2)).toBe(-1);
    expect(compare(2, 2)).toBe(0);
  });
});

describe("BoundedHeap", () => {
  it("leaves the heap as it was when listing it sorted, so offers can go on", () => {
    const keys = [1, 9, 5, 7, 3, 8];
    const heap = new BoundedHeap(3, byKey(keys));
    for (const item of [0, 1, 2, 3]) heap.offer(item);
    expect(heap.sorted()).toEqual([1, 3, 2]);
    expect(heap.worst).toBe(2);
    for (const item of [4, 5]) heap.offer(item);
    expect(heap.sorted()).toEqual([1, 5, 3]);
  });

  it("keeps the best `capacity` items offered, in any offering order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 50 }),
        fc.integer({ min: -1, max: 55 }),
        fc.nat(),
        (keys, capacity, rotate) => {
          const heap = new BoundedHeap(capacity, byKey(keys));
          const n = keys.length;
          for (let i = 0; i < n; i++) heap.offer((i + rotate) % n);
          expect(heap.sorted()).toEqual(fullOrder(keys).slice(0, Math.max(0, capacity)));
        },
      ),
      { seed: 11 },
    );
  });

  it("holds its worst kept item at the root once full", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 40 }), (keys) => {
        const capacity = Math.ceil(keys.length / 2);
        const heap = new BoundedHeap(capacity, byKey(keys));
        keys.forEach((_, i) => heap.offer(i));
        expect(heap.full).toBe(true);
        expect(heap.length).toBe(capacity);
        expect(heap.worst).toBe(fullOrder(keys)[capacity - 1]);
      }),
      { seed: 12 },
    );
  });

  it("offer says which item was left out, so its storage can be reused", () => {
    const keys = [3, 9, 1, 7];
    const heap = new BoundedHeap(2, byKey(keys));
    expect(heap.offer(0)).toBeNull();
    expect(heap.offer(1)).toBeNull();
    expect(heap.offer(2)).toBe(2);
    expect(heap.offer(3)).toBe(0);
    expect(heap.sorted()).toEqual([1, 3]);
  });

  it("replaceWorst returns the evicted item and keeps the order", () => {
    const keys = [3, 9, 1, 7, 5];
    const heap = new BoundedHeap(3, byKey(keys));
    for (const item of [0, 1, 2]) heap.push(item);
    expect(heap.worst).toBe(2);
    expect(heap.replaceWorst(3)).toBe(2);
    expect(heap.worst).toBe(0);
    expect(heap.replaceWorst(4)).toBe(0);
    expect(heap.sorted()).toEqual([1, 3, 4]);
  });

  it("sorted leaves the heap usable", () => {
    const keys = [4, 2, 8, 6];
    const heap = new BoundedHeap(2, byKey(keys));
    heap.offer(0);
    heap.offer(1);
    expect(heap.sorted()).toEqual([0, 1]);
    heap.offer(2);
    heap.offer(3);
    expect(heap.sorted()).toEqual([2, 3]);
  });

  it("refuses push when full and replaceWorst when empty", () => {
    const heap = new BoundedHeap(1, byKey([1, 2]));
    expect(() => heap.replaceWorst(0)).toThrow(/empty/);
    heap.push(0);
    expect(() => heap.push(1)).toThrow(/full/);
  });

  it("asks its order only about items offered, never about a place past either end", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 30 }), fc.integer({ min: 0, max: 8 }), (keys, capacity) => {
        const asked: unknown[] = [];
        const order = byKey(keys);
        const heap = new BoundedHeap(capacity, (a, b) => {
          asked.push(a, b);
          return order(a, b);
        });
        keys.forEach((_, i) => heap.offer(i));
        expect(asked.filter((item) => !(typeof item === "number" && item >= 0 && item < keys.length))).toEqual([]);
        expect(heap.sorted()).toEqual(fullOrder(keys).slice(0, capacity));
      }),
      { seed: 13 },
    );
  });

  it("with capacity 0 keeps nothing", () => {
    const heap = new BoundedHeap(0, byKey([1, 2]));
    heap.offer(0);
    heap.offer(1);
    expect(heap.length).toBe(0);
    expect(heap.sorted()).toEqual([]);
  });
});
