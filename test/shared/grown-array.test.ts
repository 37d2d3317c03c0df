import { describe, expect, it } from "vitest";
import { type GrownArray, type GrownArrayType, grownArray, MAPPED_BYTES, newArray } from "../../src/shared/grown-array.js";

const TYPES: readonly GrownArrayType<GrownArray>[] = [Float64Array, Float32Array, Int32Array, Uint32Array, Uint16Array, Uint8Array];
/** Elements of `type` that make an array of exactly MAPPED_BYTES. */
const mappedLength = (type: { BYTES_PER_ELEMENT: number }) => MAPPED_BYTES / type.BYTES_PER_ELEMENT;

const isMapped = (array: ArrayBufferView) => array.buffer instanceof SharedArrayBuffer;

describe("newArray", () => {
  it.each(TYPES)("gives a plain, zeroed %o below the mapped size", (type) => {
    const array = newArray(type, mappedLength(type) - 1);
    expect(array).toBeInstanceOf(type);
    expect(array.length).toBe(mappedLength(type) - 1);
    expect(isMapped(array)).toBe(false);
    expect(array.every((x) => x === 0)).toBe(true);
  });

  it.each(TYPES)("maps a zeroed %o from the mapped size on, with room to grow", (type) => {
    const array = newArray(type, mappedLength(type));
    expect(array).toBeInstanceOf(type);
    expect(array.length).toBe(mappedLength(type));
    expect(isMapped(array)).toBe(true);
    expect((array.buffer as unknown as { growable: boolean }).growable).toBe(true);
    expect(array.every((x) => x === 0)).toBe(true);
  });
});

describe("grownArray", () => {
  const filled = <A extends GrownArray>(array: A): A => {
    for (let i = 0; i < array.length; i++) array[i] = (i % 250) + 1;
    return array;
  };
  const expectGrown = (before: ArrayLike<number>, after: ArrayLike<number>, length: number) => {
    expect(after.length).toBe(length);
    for (let i = 0; i < before.length; i++) if (after[i] !== (i % 250) + 1) throw new Error(`value ${i} lost`);
    for (let i = before.length; i < length; i++) if (after[i] !== 0) throw new Error(`new value ${i} is not zero`);
  };

  it.each(TYPES)("keeps a small %o's values and zeroes the new ones", (type) => {
    const small = filled(newArray(type, 100));
    const grown = grownArray(small, 200);
    expect(grown).toBeInstanceOf(type);
    expectGrown(small, grown, 200);
    expect(isMapped(grown)).toBe(false);
  });

  it.each(TYPES)("maps a %o once it grows past the mapped size", (type) => {
    const small = filled(newArray(type, mappedLength(type) / 2));
    const grown = grownArray(small, mappedLength(type) * 2);
    expectGrown(small, grown, mappedLength(type) * 2);
    expect(isMapped(grown)).toBe(true);
  });

  it.each(TYPES)("grows a mapped %o in place while its room lasts, without a copy", (type) => {
    const mapped = filled(newArray(type, mappedLength(type)));
    const twice = grownArray(mapped, 2 * mappedLength(type));
    const fourTimes = grownArray(twice, 4 * mappedLength(type));
    expect(twice.buffer).toBe(mapped.buffer);
    expect(fourTimes.buffer).toBe(mapped.buffer);
    expectGrown(mapped, fourTimes, 4 * mappedLength(type));
  });

  it.each(TYPES)("copies a mapped %o into a new mapping once it outgrows its room", (type) => {
    const mapped = filled(newArray(type, mappedLength(type)));
    const grown = grownArray(mapped, 5 * mappedLength(type));
    expect(grown.buffer).not.toBe(mapped.buffer);
    expect(isMapped(grown)).toBe(true);
    expectGrown(mapped, grown, 5 * mappedLength(type));
  });

  it("copies a view that does not start its mapping rather than growing the mapping under it", () => {
    const mapped = newArray(Int32Array, mappedLength(Int32Array));
    const view = filled(mapped.subarray(4));
    const grown = grownArray(view, view.length * 2);
    expect(grown.buffer).not.toBe(mapped.buffer);
    expectGrown(view, grown, view.length * 2);
  });

  it.each([10, MAPPED_BYTES])("gives an array of %i bytes asked to grow to its own length back with its values", (length) => {
    const array = filled(newArray(Uint8Array, length));
    const same = grownArray(array, length);
    expectGrown(array, same, length);
  });

  it("copies a view that ends before its mapping does, whose bytes past it are not new", () => {
    const mapped = newArray(Uint8Array, 2 * MAPPED_BYTES).fill(7);
    const shorter = filled(new Uint8Array(mapped.buffer, 0, MAPPED_BYTES));
    const grown = grownArray(shorter, MAPPED_BYTES + 10);
    expect(grown.buffer).not.toBe(mapped.buffer);
    expectGrown(shorter, grown, MAPPED_BYTES + 10);
  });
});
