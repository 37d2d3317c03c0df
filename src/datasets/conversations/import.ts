import type { ScenarioSpec } from "../../harness/scenario/schema.js";
import { fileError } from "../../shared/errors.js";
import { readConversations } from "./read.js";
import type { Conversation } from "./schema.js";
import { emptyImportStats, type ImportStats } from "./stats.js";
import { conversationToScenario, type ScenarioOptions } from "./to-scenario.js";

export interface ImportedScenarios {
  scenarios: ScenarioSpec[];
  stats: ImportStats;
  /** Every case of a repair that the stats only count, one line each, naming the file, line and question. */
  notices: string[];
}

export interface ImportedFile extends ImportedScenarios {
  /** sha256 of the file's bytes, for the results manifest. */
  sha256: string;
}

/** Turns conversations into scenarios one at a time, keeping the stats of the whole import. */
export class ScenarioCollector {
  readonly scenarios: ScenarioSpec[] = [];
  readonly stats = emptyImportStats();
  private readonly notices: string[] = [];

  constructor(private readonly options: ScenarioOptions) {}

  /** `where` says where the conversation was read, such as "talks.jsonl:3", for the notices. */
  add(conversation: Conversation, where: string): void {
    const scenario = conversationToScenario(conversation, this.options, this.stats, { where, lines: this.notices });
    if (scenario !== undefined) this.scenarios.push(scenario);
  }

  /** The scenarios, or a FileError about `source` when no question was left to ask. */
  result(source: string): ImportedScenarios {
    if (this.scenarios.length === 0) {
      const chosen = this.options.categories === undefined ? "" : ` of the chosen categories (${this.options.categories.join(", ")})`;
      throw fileError(
        source,
        this.stats.questions === 0
          ? `holds no question${chosen} to ask`
          : `no question${chosen} is left to ask: none has evidence that names an imported turn`,
      );
    }
    return { scenarios: this.scenarios, stats: this.stats, notices: this.notices };
  }
}

/**
 * Imports a conversation JSON Lines file (or .jsonl.gz), streaming it: memory holds one
 * conversation of the file at a time, besides the scenarios built so far.
 */
export async function importConversations(file: string, options: ScenarioOptions & { display?: string } = {}): Promise<ImportedFile> {
  const display = options.display ?? file;
  const source = readConversations(file, display);
  const collector = new ScenarioCollector(options);
  for await (const { where, conversation } of source.conversations) collector.add(conversation, where);
  return { ...collector.result(display), sha256: source.sha256() };
}
