import { describe, expect, it } from "vitest";
import { SeqSlots } from "../../../src/memory/store/seq-slots.js";

describe("seq slots", () => {
  it("finds the slot of every row recorded, past a growth, and no slot for a row between, before or after them", () => {
    const slots = new SeqSlots();
    expect(slots.slotOf(1)).toBeUndefined();
    // Rows of one scope skip the rows other scopes took: 3, 6, 9, …
    const rows = Array.from({ length: 40 }, (_, slot) => 3 * (slot + 1));
    for (const seq of rows) slots.push(seq);
    rows.forEach((seq, slot) => expect(slots.slotOf(seq)).toBe(slot));
    rows.forEach((seq, slot) => expect(slots.seqAt(slot)).toBe(seq));
    for (const seq of [0, 1, 2, 4, 5, 119, 121, 123, 1e9]) expect(slots.slotOf(seq)).toBeUndefined();
  });

  it("refuses a row that is not past the last one, which would break the search", () => {
    const slots = new SeqSlots();
    slots.push(5);
    expect(() => slots.push(5)).toThrow("row 5 is not past row 5: slots must be added in row order");
    expect(() => slots.push(4)).toThrow("row 4 is not past row 5");
    slots.push(6);
    expect(slots.slotOf(6)).toBe(1);
  });
});

describe("seq slots when empty", () => {
  it("finds no slot for row 0, which the unused room past the last slot holds as its zero", () => {
    expect(new SeqSlots().slotOf(0)).toBeUndefined();
    const slots = new SeqSlots();
    slots.push(3);
    expect(slots.slotOf(0)).toBeUndefined();
    expect(slots.slotOf(3)).toBe(0);
  });
});
