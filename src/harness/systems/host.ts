/**
 * The systems one thread runs trials on. recollect and the baselines are made afresh for each
 * trial (they cost nothing to make; recollect's in-memory stores reuse the thread's connections); a module is loaded and a subprocess started once per thread
 * and kept for its later trials, until shutdown.
 */
import { ScratchStores, type TokenCounter } from "../../memory/index.js";
import { BASELINE_SYSTEMS } from "./baselines.js";
import type { MemorySystem } from "./contract.js";
import { moduleSystem } from "./module.js";
import { type EmbeddingSource, recollectSystem } from "./recollect.js";
import type { SystemRef } from "./spec.js";
import { subprocessSystem } from "./subprocess/system.js";

/** What recollect needs for one trial: its scenario's line prices and vectors. */
export interface TrialResources {
  tokenizer: TokenCounter;
  embeddings: EmbeddingSource;
}

export class SystemHost {
  private readonly kept = new Map<string, Promise<MemorySystem>>();
  /** recollect's stores: a trial's connection is emptied and kept for the next, its statements prepared once. */
  readonly stores = new ScratchStores();

  system(ref: SystemRef, resources: TrialResources): Promise<MemorySystem> {
    switch (ref.type) {
      case "recollect":
        return Promise.resolve(recollectSystem({ policy: ref.policy, tokenizer: resources.tokenizer, embeddings: resources.embeddings, stores: this.stores }));
      case "baseline":
        return Promise.resolve(BASELINE_SYSTEMS[ref.baseline].create());
      case "module":
        return this.keep(ref, () => moduleSystem(ref.file, ref.options));
      case "command":
        return this.keep(ref, async () => subprocessSystem({ name: ref.name, command: ref.command, cwd: ref.cwd, timeoutMs: ref.timeoutMs, options: ref.options }));
    }
  }

  /** Ends every kept system (a subprocess exits), whatever happened to the others. */
  async shutdown(): Promise<void> {
    const systems = [...this.kept.values()];
    this.kept.clear();
    this.stores.close();
    await Promise.allSettled(systems.map(async (made) => (await made).shutdown?.()));
  }

  private keep(ref: SystemRef, make: () => Promise<MemorySystem>): Promise<MemorySystem> {
    const key = JSON.stringify(ref);
    let made = this.kept.get(key);
    if (made === undefined) {
      made = make();
      this.kept.set(key, made);
      // A module that fails to load is tried again by the next trial, which reports it again.
      made.catch(() => this.kept.delete(key));
    }
    return made;
  }
}
