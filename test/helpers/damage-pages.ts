import { closeSync, openSync, writeSync } from "node:fs";

/** SQLite's default page size, which the files these tests damage keep. */
const PAGE_SIZE = 4096;

/**
 * Overwrites pages (1-based) of an SQLite file with bytes no page holds, as a bad block or a stray
 * write would: each whole page, or only the cell pointers past each page's header, which leaves
 * the page readable and makes quick_check name every cell (a report of many lines).
 */
export function damagePages(file: string, pages: readonly number[], part: "whole" | "cell pointers" = "whole"): void {
  const [from, length] = part === "whole" ? [0, PAGE_SIZE] : [8, 64];
  const fd = openSync(file, "r+");
  try {
    for (const page of pages) writeSync(fd, Buffer.alloc(length, part === "whole" ? 0xab : 0xff), 0, length, (page - 1) * PAGE_SIZE + from);
  } finally {
    closeSync(fd);
  }
}
