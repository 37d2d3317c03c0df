import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { firstDamage } from "../../src/shared/quick-check.js";
import { useTempDir } from "../harness/temp-files.js";
import { damagePages } from "../helpers/damage-pages.js";

const temp = useTempDir("recollect-quick-check-");

/** A file of 3,000 rows over many pages, some of whose pages are then overwritten. */
function fileWithPages(name: string, damagedPages: readonly number[]): string {
  const file = temp.path(name);
  const db = new Database(file);
  db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
  const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
  db.transaction(() => {
    for (let i = 0; i < 3000; i++) insert.run(`text number ${i} with some words`, i);
  })();
  db.close();
  damagePages(file, damagedPages, "cell pointers");
  return file;
}

describe("firstDamage", () => {
  it("finds nothing in a sound file", () => {
    const db = new Database(fileWithPages("sound.db", []));
    expect(firstDamage(db)).toBeUndefined();
    db.close();
  });

  it("gives the first problem of a file with damaged pages, alone on one line", () => {
    const db = new Database(fileWithPages("damaged.db", [3, 4, 5, 6]));
    // The whole report names a problem per cell of every damaged page.
    expect((db.pragma("quick_check", { simple: true }) as string).split("\n").length).toBeGreaterThan(50);
    const found = firstDamage(db)!;
    expect(found).toMatch(/^Tree \d+ page \d+ cell \d+: .+/);
    expect(found).not.toContain("\n");
    expect(found).not.toContain("***");
    db.close();
  });
});
