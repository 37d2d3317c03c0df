import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { unwritableFile } from "../../shared/errors.js";
import { formatPath } from "../files/load-yaml.js";
import { rowTrialSchema } from "../results/schema.js";
import { trialKey } from "../results/trial-key.js";
import type { Trial } from "../results/types.js";

/**
 * Completed trials of an interrupted run, one JSON line each. A kill -9 can leave at most a torn
 * last line, which is ignored; every complete line is a whole trial, so a re-run only runs what is
 * missing. A line that is damaged in any other way (edited, truncated in the middle, valid JSON
 * but not a whole trial) is skipped with a warning, and its trial runs again. The file is named
 * after the experiment's hash, so an edited experiment starts afresh.
 */
export class Journal {
  constructor(readonly file: string) {}

  load(warn: (message: string) => void = () => {}): Map<string, Trial> {
    const done = new Map<string, Trial>();
    if (!existsSync(this.file)) return done;
    const text = readFileSync(this.file, "utf8");
    const torn = text !== "" && !text.endsWith("\n");
    // End a torn last line, so the next append starts a line of its own instead of joining it.
    if (torn) appendFileSync(this.file, "\n");
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      const skip = (why: string) => warn(`${this.file}: line ${i + 1} ${why}; that trial runs again`);
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        // A torn last line is what an interrupted write leaves; anything else is damage.
        if (!(torn && i === lines.length - 1)) skip("is not valid JSON");
        return;
      }
      const parsed = rowTrialSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        skip(`is not a complete trial (at ${formatPath(issue.path)}: ${issue.message})`);
        return;
      }
      done.set(trialKey(parsed.data), parsed.data as Trial);
    });
    return done;
  }

  append(trial: Trial): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(trial)}\n`);
    } catch (error) {
      throw unwritableFile(this.file, error) ?? error;
    }
  }

  remove(): void {
    rmSync(this.file, { force: true });
  }
}
