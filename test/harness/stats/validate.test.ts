import { describe, expect, it } from "vitest";
import { assertFiniteValues, assertOpenUnit, assertPositiveInteger } from "../../../src/harness/stats/validate.js";

describe("assertFiniteValues", () => {
  it("accepts finite numbers, and an empty list", () => {
    expect(() => assertFiniteValues("f", "xs", [0, -1.5, 1e300])).not.toThrow();
    expect(() => assertFiniteValues("f", "xs", [])).not.toThrow();
  });

  it.each([NaN, Infinity, -Infinity])("refuses %s, naming the function, the argument and the position", (bad) => {
    expect(() => assertFiniteValues("mean", "values", [1, 2, bad])).toThrow(
      new RangeError(`mean: values[2] must be a finite number, got ${bad}`),
    );
  });
});

describe("assertPositiveInteger", () => {
  it("accepts 1 and large whole numbers", () => {
    expect(() => assertPositiveInteger("f", "n", 1)).not.toThrow();
    expect(() => assertPositiveInteger("f", "n", 2 ** 40)).not.toThrow();
  });

  it.each([0, -3, 1.5, NaN, 2 ** 53])("refuses %s", (bad) => {
    expect(() => assertPositiveInteger("bootstrap", "resamples", bad)).toThrow(
      new RangeError(`bootstrap: resamples must be a positive integer, got ${bad}`),
    );
  });
});

describe("assertOpenUnit", () => {
  it("accepts values strictly between 0 and 1", () => {
    expect(() => assertOpenUnit("f", "alpha", 0.05)).not.toThrow();
    expect(() => assertOpenUnit("f", "alpha", Number.EPSILON)).not.toThrow();
  });

  it.each([0, 1, -0.1, 1.5, NaN])("refuses %s", (bad) => {
    expect(() => assertOpenUnit("ci", "alpha", bad)).toThrow(new RangeError(`ci: alpha must be strictly between 0 and 1, got ${bad}`));
  });
});
