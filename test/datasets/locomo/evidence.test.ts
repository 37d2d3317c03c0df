import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalDiaId, evidencePieces } from "../../../src/datasets/locomo/evidence.js";

describe("canonicalDiaId", () => {
  it("strips leading zeros from the session and turn numbers", () => {
    expect(canonicalDiaId("D30:05")).toBe("D30:5");
    expect(canonicalDiaId("D08:006")).toBe("D8:6");
    expect(canonicalDiaId("D1:3")).toBe("D1:3");
  });

  it("leaves what is not a dialogue id alone", () => {
    expect(canonicalDiaId("D:11:26")).toBe("D:11:26");
    expect(canonicalDiaId("D")).toBe("D");
  });
});

describe("evidencePieces", () => {
  it("splits several ids written in one string", () => {
    expect(evidencePieces("D8:6; D9:17")).toEqual(["D8:6", "D9:17"]);
    expect(evidencePieces("D9:17 D4:4  D4:6")).toEqual(["D9:17", "D4:4", "D4:6"]);
    expect(evidencePieces("D4:4, D4:6")).toEqual(["D4:4", "D4:6"]);
  });

  it("recovers zero-padded ids", () => {
    expect(evidencePieces("D30:05")).toEqual(["D30:5"]);
  });

  it("keeps what names no turn, in order, for the importer to drop and count", () => {
    expect(evidencePieces("D1:3 D D:11:26 D99:1")).toEqual(["D1:3", "D", "D:11:26", "D99:1"]);
  });

  it("gives nothing for an empty string", () => {
    expect(evidencePieces("")).toEqual([]);
    expect(evidencePieces(" ; ")).toEqual([]);
  });

  it("loses no piece: each piece of the string comes back, canonicalised, in order", () => {
    const piece = fc.oneof(
      fc.tuple(fc.nat(40), fc.nat(40)).map(([s, t]) => `D${s}:${String(t).padStart(2, "0")}`),
      fc.stringMatching(/^[A-Za-z0-9:]{1,6}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.constantFrom("; ", " ", ", ", ";"), (pieces, separator) => {
        expect(evidencePieces(pieces.join(separator))).toEqual(pieces.map(canonicalDiaId));
      }),
    );
  });
});
