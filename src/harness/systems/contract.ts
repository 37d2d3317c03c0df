/**
 * The contract between the harness and a memory system: recollect's own (every built-in policy
 * and ablation), a baseline, a user's TypeScript module or a subprocess in any language. The
 * runner drives every trial through it, so every system is measured by the same code.
 *
 * A trial opens a fresh scope, writes the timeline's memories as they happen, retrieves at each
 * question under a token budget, writes each question back when the trial writes back, and closes
 * the scope. Times are epoch milliseconds on the trial's virtual clock; a system never reads the
 * wall clock to decide anything.
 */
import type { Kind } from "../../memory/index.js";

/** One memory as the harness writes it. */
export interface SystemMemory {
  /** Unique within the scope; retrieval answers with these ids. */
  id: string;
  kind: Kind;
  text: string;
  createdAt: number;
  /** When the event happened (episodic memories), or null. */
  occurredAt: number | null;
  /** When the memory was last used, where the data says so (a scenario may); otherwise createdAt. */
  lastAccessedAt?: number;
  /** A 1–10 rating, present only when the data has one (or the experiment sets one). */
  importance?: number;
  /** Id of an earlier memory of this scope that this one corrects: the old one is no longer true. */
  supersedes: string | null;
  /** From this time on the memory no longer holds, or null. */
  expiresAt: number | null;
  /** Provenance, such as a dataset turn id, or null. */
  source: string | null;
  /** The Gemma-token cost of the memory's line, as the budget counts it. */
  tokens: number;
}

/** One question to retrieve for. */
export interface SystemQuery {
  query: string;
  now: number;
  /** Gemma tokens the returned memories' lines should fit in; null when the experiment sets none. */
  budget: number | null;
  /**
   * Evaluation only, and only for systems that declare `locates`: memories whose rank the system
   * reports however deep they place (in `sections`), so rank metrics reach past what it returns.
   */
  locate?: { ids: readonly string[]; within?: number; neighbours: number };
}

/** A memory's place in a ranking the system reports, and the signals that put it there when it has them. */
export interface RankedEntry {
  id: string;
  /** 1-based, within its section. */
  rank: number;
  rel?: number;
  rec?: number;
  imp?: number;
  total?: number;
}

/** One ranked section of a system that ranks in sections (recollect ranks one per kind, or one pooled). */
export interface RankedSection {
  name: string;
  /** The section's ordering as deep as the system looked, then located memories placed deeper. */
  ranked: RankedEntry[];
  /** What reached the model from this section, in block order. */
  kept: string[];
  /** The weights [relevance, recency, importance] that turned signals into `total`. */
  weights?: [number, number, number];
}

/** What retrieval gives back. */
export interface Retrieved {
  /** The memories the system gives the model, in the order it gives them: its ranking. */
  ids: string[];
  /** The text the system would put into the prompt, when it builds one. */
  block?: string;
  /**
   * Systems that rank in sections may report them; ranks are then read within each section. The
   * sections' `kept` lists, joined, must be `ids`. Without them, a memory's rank is its place in `ids`.
   */
  sections?: RankedSection[];
}

/** One scope of a system: the memory of one user, or one conversation, for one trial. */
export interface SystemScope {
  write(memories: readonly SystemMemory[]): Promise<void>;
  retrieve(query: SystemQuery): Promise<Retrieved>;
  /** Frees the scope; nothing of it is read again. */
  close(): Promise<void>;
}

export interface MemorySystem {
  /** Whether retrieve honours `locate` (reports the rank of given memories however deep). */
  readonly locates?: boolean;
  /** A fresh, empty scope. */
  open(scope: string): Promise<SystemScope>;
  /** Ends the system (a subprocess exits); called once, after its last scope is closed. */
  shutdown?(): Promise<void>;
}

/** The calls of the contract, as errors and timings name them. */
export type SystemCall = "start" | "open" | "write" | "retrieve" | "close" | "shutdown";

/**
 * A system that broke the contract or failed: it crashed, hung past its timeout, wrote what is not
 * a reply, or answered with ids it was never given. The runner names the system, the trial and the
 * call, then stops the run or skips the trial as the user chose.
 */
export class SystemError extends Error {
  constructor(
    readonly call: SystemCall,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${call}: ${problem}`, options);
    this.name = "SystemError";
  }
}
