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

  it("puts importance scores into levels 0, 0.1, …, 1", () => {
    expect([0, 0.04, 0.05, 0.5, 1, 1.5, -1].map(importanceLevel)).toEqual([0, 0, 1, 5, 10, 10, 0]);
  });
});
