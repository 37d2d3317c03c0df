import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AccessOrder, IMPORTANCE_LEVELS, importanceLevel } from "../../../src/memory/store/access-order.js";
import { KINDS } from "../../../src/memory/types.js";

const op = fc.oneof(
  fc.record({ op: fc.constant("add" as const), kind: fc.nat(KINDS.length - 1), importance: fc.integer({ min: 0, max: 20 }), key: fc.integer({ min: -20, max: 20 }) }),
  fc.record({ op: fc.constant("move" as const), target: fc.nat(), key: fc.integer({ min: -20, max: 20 }) }),
  fc.record({ op: fc.constant("remove" as const), target: fc.nat() }),
  fc.constant({ op: "read" as const }),
);

interface Expected {
  kind: number;
  importance: number;
  key: number;
  current: boolean;
}

/** Reads every run and checks it against the memories as they should be. */
function expectRuns(order: AccessOrder, memories: Expected[]): void {
  for (let kind = 0; kind < KINDS.length; kind++) {
    const runs = order.runsOf(kind);
    expect(runs).toHaveLength(IMPORTANCE_LEVELS);
    runs.forEach((run, level) => {
      const keys = Array.from(run.keys.subarray(0, run.length));
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
      const live: [number, number][] = [];
      for (let i = 0; i < run.length; i++) {
        const slot = run.slots[i];
        if (order.isLive(slot, run.versions[i])) live.push([slot, run.keys[i]]);
      }
      const wanted = memories.flatMap((m, slot): [number, number][] =>
        m.current && m.kind === kind && importanceLevel(m.importance) === level ? [[slot, m.key]] : [],
      );
      expect(live.sort((a, b) => a[0] - b[0])).toEqual(wanted);
      for (const [slot] of live) {
        expect(memories[slot].importance).toBeGreaterThanOrEqual(run.minImportance);
        expect(memories[slot].importance).toBeLessThanOrEqual(run.maxImportance);
      }
    });
  }
}

/**
 * The entries of the run of kind 0 at importance level 5 in run order, each as "slot@key", with
 * " dead" after an entry that is not its slot's live one.
 */
function runEntries(order: AccessOrder): string[] {
  const run = order.runsOf(0)[5];
  return Array.from(run.slots.subarray(0, run.length), (slot, i) => `${slot}@${run.keys[i]}${order.isLive(slot, run.versions[i]) ? "" : " dead"}`);
}

/** An order holding slots 0, 1, … at importance 0.5 of kind 0, last accessed at `keys`. */
function orderOf(keys: number[]): AccessOrder {
  const order = new AccessOrder();
  keys.forEach((key, slot) => order.add(slot, 0, 0.5, key));
  return order;
}

describe("access order", () => {
  it("keeps each kind and importance level's current memories ascending by last access, through moves and removals", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const order = new AccessOrder();
        const memories: Expected[] = [];
        for (const o of ops) {
          if (o.op === "add") {
            const m = { kind: o.kind, importance: o.importance / 20, key: o.key, current: true };
            order.add(memories.length, m.kind, m.importance, m.key);
            memories.push(m);
          } else if (o.op === "read") {
            expectRuns(order, memories);
          } else if (memories.length > 0) {
            const m = memories[o.target % memories.length];
            if (!m.current) continue;
            if (o.op === "move") {
              order.move(o.target % memories.length, m.kind, m.importance, o.key);
              m.key = o.key;
            } else {
              order.remove(o.target % memories.length, m.kind, m.importance);
              m.current = false;
            }
          }
        }
        expectRuns(order, memories);
      }),
      { seed: 5 },
    );
  });

  it("sorts the additions read together by last access, equal ones in arrival order", () => {
    expect(runEntries(orderOf([7, 2, 5, 2]))).toEqual(["1@2", "3@2", "2@5", "0@7"]);
  });

  it("merges later additions between and before the entries already read, after those with an equal last access", () => {
    const order = orderOf([2, 5, 7]);
    runEntries(order);
    order.add(3, 0, 0.5, 6);
    order.add(4, 0, 0.5, 1);
    order.add(5, 0, 0.5, 5);
    expect(runEntries(order)).toEqual(["4@1", "0@2", "1@5", "5@5", "3@6", "2@7"]);
  });

  it("appends touched memories at their new last access and keeps the old entries, dead, until they outnumber the live", () => {
    const order = orderOf([1, 2, 3]);
    order.move(0, 0, 0.5, 4);
    order.move(1, 0, 0.5, 5);
    order.move(2, 0, 0.5, 6);
    expect(runEntries(order)).toEqual(["0@1 dead", "1@2 dead", "2@3 dead", "0@4", "1@5", "2@6"]);
    order.move(0, 0, 0.5, 7);
    expect(runEntries(order)).toEqual(["1@5", "2@6", "0@7"]);
  });

  it("drops the dead entries of corrected memories once they are more than half the run, and counts afresh after", () => {
    const order = orderOf([1, 2, 3, 4]);
    order.remove(0, 0, 0.5);
    expect(runEntries(order)).toEqual(["0@1 dead", "1@2", "2@3", "3@4"]);
    order.remove(1, 0, 0.5);
    expect(runEntries(order)).toEqual(["0@1 dead", "1@2 dead", "2@3", "3@4"]);
    order.remove(2, 0, 0.5);
    expect(runEntries(order)).toEqual(["3@4"]);
    order.add(4, 0, 0.5, 5);
    order.add(5, 0, 0.5, 6);
    order.remove(4, 0, 0.5);
    expect(runEntries(order)).toEqual(["3@4", "4@5 dead", "5@6"]);
  });

  it("keeps every slot live past the first 16 and for a slot far past those added so far", () => {
    const order = orderOf(Array.from({ length: 17 }, (_, slot) => slot));
    expect(runEntries(order).filter((entry) => !entry.endsWith("dead"))).toHaveLength(17);
    order.add(100, 0, 0.5, 100);
    expect(runEntries(order).slice(-2)).toEqual(["16@16", "100@100"]);
  });

  it("puts importance scores into levels 0, 0.1, …, 1", () => {
    expect([0, 0.04, 0.05, 0.5, 1, 1.5, -1].map(importanceLevel)).toEqual([0, 0, 1, 5, 10, 10, 0]);
  });
});
