import { describe, expect, it } from "vitest";
import { blobToVector, vectorToBlob } from "../../../src/memory/store/schema.js";

describe("vectorToBlob", () => {
  it("gives a Float32Array's own bytes, with no copy", () => {
    const vector = Float32Array.of(1, 2, 3, 4).subarray(1, 3);
    const blob = vectorToBlob(vector);
    expect(blob.buffer).toBe(vector.buffer);
    expect(blob.byteOffset).toBe(4);
    expect([...blobToVector(blob)]).toEqual([2, 3]);
  });

  it("rounds any other array to float32 in new bytes", () => {
    const blob = vectorToBlob([0.1, 1e40, -2]);
    expect([...blobToVector(blob)]).toEqual([Math.fround(0.1), Number.POSITIVE_INFINITY, -2]);
  });
});
