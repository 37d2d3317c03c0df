/**
 * The systems an experiment compares beside its ablations (`systems:`), resolved to what a trial
 * runs: a baseline by name, a module found from the experiment's folder, or a command run there.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { KINDS, type RetrievalPolicy } from "../../memory/index.js";
import { fileError } from "../../shared/errors.js";
import { BASELINE_NAMES, BASELINE_SYSTEMS, type BaselineName } from "../systems/baselines.js";
import { describeSystem, type SystemEntry, type SystemInfo, type SystemRef } from "../systems/spec.js";
import { ExperimentPaths } from "./paths.js";
import type { ExperimentSpec } from "./schema.js";

export interface ResolvedSystem {
  name: string;
  description: string;
  note?: string;
  system: SystemRef;
  info: SystemInfo;
  writeBack: boolean;
  /** The files the system is made of (a module, a script named in a command), for the experiment's hash. */
  files: string[];
}

/**
 * The budget systems are told: the experiment's, or the base policy's total section quota (what
 * recollect's sections share, and what the pooled ablation gets); null when a quota is unbounded.
 */
export function systemBudget(spec: Pick<ExperimentSpec, "budget">, base: RetrievalPolicy): number | null {
  if (spec.budget !== undefined) return spec.budget;
  const quotas = base.mode === "pooled" ? [base.pooled.quota] : KINDS.map((kind) => base.sections[kind].quota);
  return quotas.some((q) => q === null) ? null : (quotas as number[]).reduce((a, b) => a + b, 0);
}

export function resolveSystems(file: string, spec: ExperimentSpec, base: RetrievalPolicy): ResolvedSystem[] {
  const paths = new ExperimentPaths(file, spec.allowOutside);
  return spec.systems.map((entry, i) => resolveSystem(file, paths, entry, i, base));
}

function resolveSystem(file: string, paths: ExperimentPaths, entry: SystemEntry, i: number, base: RetrievalPolicy): ResolvedSystem {
  if (typeof entry === "string") {
    if (!(BASELINE_NAMES as string[]).includes(entry)) {
      throw fileError(file, `at systems[${i}]: unknown system "${entry}" (built in: ${BASELINE_NAMES.join(", ")}; or give module: or command:)`);
    }
    const baseline = entry as BaselineName;
    const info: SystemInfo = { type: "baseline", baseline };
    return { name: entry, description: describeSystem(info), note: BASELINE_SYSTEMS[baseline].note, system: { type: "baseline", baseline }, info, writeBack: base.writeBack, files: [] };
  }
  const common = {
    name: entry.name,
    ...(entry.description === undefined ? {} : { note: entry.description }),
    writeBack: entry.writeBack ?? base.writeBack,
  };
  if ("module" in entry) {
    const found = paths.file(entry.module, `systems[${i}].module`, "system module");
    const info: SystemInfo = { type: "module", module: entry.module, options: entry.options };
    return {
      ...common,
      description: describeSystem(info),
      system: { type: "module", file: resolve(found), options: entry.options, timeoutMs: entry.timeoutMs },
      info,
      files: [found],
    };
  }
  const cwd = resolve(paths.folder);
  const info: SystemInfo = { type: "command", command: entry.command, options: entry.options };
  return {
    ...common,
    description: describeSystem(info),
    system: { type: "command", name: entry.name, command: entry.command, cwd, options: entry.options, timeoutMs: entry.timeoutMs },
    info,
    // The system's code is part of what ran: editing it starts the run afresh. That is the program
    // when it is a relative path (./system.py), not a name looked up on PATH, else the first
    // argument naming a file (python3 system.py); later files may be data the system itself writes.
    files: entry.command
      .filter((arg, i) => i > 0 || (arg.includes("/") && !isAbsolute(arg)))
      .map((arg) => resolve(cwd, arg))
      .filter((path) => existsSync(path) && statSync(path).isFile())
      .slice(0, 1),
  };
}

/** What the experiment's hash takes from a system: its files' contents. */
export function systemFileContents(systems: readonly ResolvedSystem[]): string[] {
  return systems.flatMap((s) => s.files.map((f) => `${s.name}:${readFileSync(f, "utf8")}`));
}
