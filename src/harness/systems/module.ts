/**
 * A memory system written as a TypeScript (or JavaScript) module: its default export makes the
 * system from the options the experiment gives it. Each worker thread loads the module once and
 * makes the system once, then opens a scope per trial.
 *
 *   export default function createSystem(options: Record<string, unknown>): MemorySystem | Promise<MemorySystem>
 */
import { pathToFileURL } from "node:url";
import { SystemError, type MemorySystem } from "./contract.js";

export async function moduleSystem(file: string, options: Record<string, unknown>): Promise<MemorySystem> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new SystemError("start", `the module could not be loaded (${(error as Error).message})`, { cause: error });
  }
  if (typeof loaded.default !== "function") {
    throw new SystemError("start", "the module's default export is not a function that makes the system (see the README's tutorial)");
  }
  let system: unknown;
  try {
    system = await (loaded.default as (options: Record<string, unknown>) => unknown)(options);
  } catch (error) {
    throw new SystemError("start", `making the system failed (${(error as Error).message})`, { cause: error });
  }
  if (typeof system !== "object" || system === null || typeof (system as MemorySystem).open !== "function") {
    throw new SystemError("start", "the module's default export did not return a system with an open(scope) method");
  }
  return system as MemorySystem;
}
