/** Shared by the systems' tests: the scripted subprocess system of test/fixtures/systems/ and what it logs. */
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { repoPath } from "../temp-files.js";

export const SCRIPTED_SYSTEM = repoPath("test/fixtures/systems/scripted-system.mjs");

/** The command that runs the scripted system with `args` (see its header for them). */
export const scripted = (...args: string[]): string[] => [process.execPath, SCRIPTED_SYSTEM, ...args];

export interface Logged {
  pid?: number;
  method?: string;
  id?: number;
  params?: Record<string, unknown>;
}

/** What the scripted system logged: its pid when it started, then each request it received. */
export function logged(file: string): Logged[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Logged);
}

/** The pids of every process the scripted system started with this log, in order. */
export const pidsIn = (file: string): number[] => logged(file).flatMap((entry) => (entry.pid === undefined ? [] : [entry.pid]));

/** The methods it was asked for, in order. */
export const methodsIn = (file: string): string[] => logged(file).flatMap((entry) => (entry.method === undefined ? [] : [entry.method]));

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process has gone (it is reaped once its parent has seen it exit); false if it outlives `ms`. */
export async function gone(pid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

/** Waits until `probe` holds, for things a process does on its own time. */
export async function eventually(probe: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await sleep(10);
  }
}
