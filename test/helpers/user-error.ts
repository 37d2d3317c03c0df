import { expect } from "vitest";
import { UserError } from "../../src/shared/errors.js";

/** The UserError a call throws; fails the test when it throws anything else or nothing. */
export function userError(call: () => unknown): UserError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error("expected a UserError");
}
