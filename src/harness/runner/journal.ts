import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Trial } from "../results/types.js";

export const trialKey = (t: { scenario: string; ablation: string; seed: number }) => `${t.scenario}\u0000${t.ablation}\u0000${t.seed}`;

/**
 * Completed trials of an interrupted run, one JSON line each. A kill -9 can leave at most a torn
 * last line, which is ignored; every complete line is a whole trial, so a re-run only runs what is
 * missing. The file is named after the experiment's hash, so an edited experiment starts afresh.
 */
export class Journal {
  constructor(readonly file: string) {}

  load(): Map<string, Trial> {
    const done = new Map<string, Trial>();
    if (!existsSync(this.file)) return done;
    const text = readFileSync(this.file, "utf8");
    // End a torn last line, so the next append starts a line of its own instead of joining it.
    if (text !== "" && !text.endsWith("\n")) appendFileSync(this.file, "\n");
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const trial = JSON.parse(line) as Trial;
        done.set(trialKey(trial), trial);
      } catch {
        // A torn line from an interrupted write: that trial runs again.
      }
    }
    return done;
  }

  append(trial: Trial): void {
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${JSON.stringify(trial)}\n`);
  }

  remove(): void {
    rmSync(this.file, { force: true });
  }
}
