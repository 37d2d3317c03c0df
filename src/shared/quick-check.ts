/**
 * SQLite's quick_check, stopped at its first problem: it reads every page once and finds what
 * damage to pages does (a torn write, a bad block, bytes overwritten). One problem is enough to
 * refuse a file, and keeps the message that refuses it to one line.
 */
import type Database from "better-sqlite3";

/** The first problem quick_check finds in `db`, or undefined when it finds none. */
export function firstDamage(db: Database.Database): string | undefined {
  const report = db.pragma("quick_check(1)", { simple: true }) as string;
  if (report === "ok") return undefined;
  // The report opens with a line naming the schema ("*** in database main ***"), which says nothing here.
  return report
    .split("\n")
    .filter((line) => !line.startsWith("***"))
    .join("; ");
}
