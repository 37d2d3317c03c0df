import { expect } from "vitest";
import { RecollectError } from "../../src/shared/errors.js";

/** The RecollectError a call throws; fails the test when it throws anything else or nothing. */
export function userError(call: () => unknown): RecollectError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(RecollectError);
    return error as RecollectError;
  }
  throw new Error("expected a RecollectError");
}
