import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalDiaId, normaliseEvidence } from "../../../src/datasets/locomo/evidence.js";

const turns = new Set(["D1:3", "D8:6", "D9:17", "D30:5", "D4:4", "D4:6"]);

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

describe("normaliseEvidence", () => {
  it("splits several ids written in one string", () => {
    expect(normaliseEvidence(["D8:6; D9:17"], turns)).toEqual({ ids: ["D8:6", "D9:17"], dropped: [] });
    expect(normaliseEvidence(["D9:17 D4:4  D4:6"], turns)).toEqual({ ids: ["D9:17", "D4:4", "D4:6"], dropped: [] });
    expect(normaliseEvidence(["D4:4, D4:6"], turns)).toEqual({ ids: ["D4:4", "D4:6"], dropped: [] });
  });

  it("recovers zero-padded ids", () => {
    expect(normaliseEvidence(["D30:05"], turns)).toEqual({ ids: ["D30:5"], dropped: [] });
  });

  it("drops and reports what still names no turn", () => {
    expect(normaliseEvidence(["D1:3", "D", "D:11:26", "D99:1", "garbage"], turns)).toEqual({
      ids: ["D1:3"],
      dropped: ["D", "D:11:26", "D99:1", "garbage"],
    });
  });

  it("keeps first-seen order and drops repeats silently", () => {
    expect(normaliseEvidence(["D4:6", "D4:4; D4:6", "D04:06"], turns)).toEqual({ ids: ["D4:6", "D4:4"], dropped: [] });
  });

  it("gives no ids for empty evidence", () => {
    expect(normaliseEvidence([], turns)).toEqual({ ids: [], dropped: [] });
    expect(normaliseEvidence(["", " ; "], turns)).toEqual({ ids: [], dropped: [] });
  });

  it("accounts for every piece: each is kept or dropped, and kept ids are turns", () => {
    const piece = fc.oneof(
      fc.constantFrom(...turns),
      fc.tuple(fc.nat(40), fc.nat(40)).map(([s, t]) => `D${s}:${String(t).padStart(2, "0")}`),
      fc.stringMatching(/^[A-Za-z0-9:]{1,6}$/),
    );
    const entry = fc.array(piece, { minLength: 1, maxLength: 4 }).chain((pieces) =>
      fc.constantFrom("; ", " ", ", ").map((separator) => pieces.join(separator)),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), (raw) => {
        const { ids, dropped } = normaliseEvidence(raw, turns);
        const pieces = raw.flatMap((e) => e.split(/[;,\s]+/)).filter((p) => p !== "");
        expect(ids.every((id) => turns.has(id))).toBe(true);
        expect(new Set(ids).size).toBe(ids.length);
        const kept = pieces.filter((p) => turns.has(canonicalDiaId(p))).map(canonicalDiaId);
        expect(new Set(ids)).toEqual(new Set(kept));
        expect(dropped.length).toBe(pieces.length - kept.length);
      }),
    );
  });
});
