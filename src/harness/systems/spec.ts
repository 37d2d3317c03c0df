/**
 * How an experiment names the systems it compares beside its ablations (`systems:`), and the plain
 * data a trial carries to say which system it runs: recollect under a policy (every ablation), a
 * built-in baseline, a module, or a command.
 */
import { z } from "zod";
import type { RetrievalPolicy } from "../../memory/index.js";
import type { BaselineName } from "./baselines.js";

/** How long a system may take over one call before it is stopped, unless its entry says otherwise. */
export const DEFAULT_SYSTEM_TIMEOUT_MS = 30_000;

const nameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "use lower-case letters, digits and dashes");

const commonFields = {
  name: nameSchema,
  /** Why the system is compared; reports show it. */
  description: z.string().optional(),
  /** Free-form settings handed to the system (the module's factory, or the subprocess's handshake). */
  options: z.record(z.string(), z.unknown()).default({}),
  /** Milliseconds one call may take; past it the call fails (a subprocess is stopped). */
  timeoutMs: z.number().int().positive().default(DEFAULT_SYSTEM_TIMEOUT_MS),
  /** Write each question back to the system as an episodic memory (default: as the experiment's policy does). */
  writeBack: z.boolean().optional(),
};

export const systemEntrySchema = z.union([
  /** A built-in baseline by name: recent-window, full-context. */
  nameSchema,
  z
    .object({
      ...commonFields,
      /** A TypeScript or JavaScript module whose default export makes the system; relative to the experiment file. */
      module: z.string().min(1),
    })
    .strict(),
  z
    .object({
      ...commonFields,
      /** The program and its arguments; it runs in the experiment file's folder and speaks the subprocess protocol. */
      command: z.array(z.string().min(1)).min(1),
    })
    .strict(),
]);
export type SystemEntry = z.output<typeof systemEntrySchema>;

/** Which system a trial runs, as plain data that crosses to a worker thread. */
export type SystemRef =
  | { type: "recollect"; policy: RetrievalPolicy }
  | { type: "baseline"; baseline: BaselineName }
  | { type: "module"; file: string; options: Record<string, unknown>; timeoutMs: number }
  | { type: "command"; name: string; command: string[]; cwd: string; options: Record<string, unknown>; timeoutMs: number };

/** What results record of a system that is not a recollect policy: as the experiment file wrote it, never a machine's path. */
export type SystemInfo =
  | { type: "baseline"; baseline: string }
  | { type: "module"; module: string; options: Record<string, unknown> }
  | { type: "command"; command: string[]; options: Record<string, unknown> };

export const systemInfoSchema = z.union([
  z.object({ type: z.literal("baseline"), baseline: z.string() }),
  z.object({ type: z.literal("module"), module: z.string(), options: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal("command"), command: z.array(z.string()), options: z.record(z.string(), z.unknown()) }),
]);

/** A system's own description, for reports: what runs, in the experiment's words. */
export function describeSystem(info: SystemInfo): string {
  switch (info.type) {
    case "baseline":
      return `the built-in baseline ${info.baseline}`;
    case "module":
      return `the module ${info.module}`;
    case "command":
      return `a subprocess: ${info.command.join(" ")}`;
  }
}

/** Whether the system's calls are timed out by the harness, and how long they may take. */
export function callTimeout(ref: SystemRef): number | undefined {
  return ref.type === "module" || ref.type === "command" ? ref.timeoutMs : undefined;
}
