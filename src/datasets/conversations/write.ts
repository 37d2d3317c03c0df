import { once } from "node:events";
import { createWriteStream, mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { z } from "zod";
import { fileError } from "../../shared/errors.js";
import { conversationSchema } from "./schema.js";

/** The input shape of a line: what a converter writes (optional fields may be left out). */
export type ConversationInput = z.input<typeof conversationSchema>;

/**
 * Writes conversations as JSON Lines (gzip-compressed when the name ends in .gz), one at a time,
 * through a temporary file renamed into place: a reader never sees half a file, and a failed
 * conversion leaves nothing behind. Each line is checked against the format first, so a
 * converter cannot write what the importer would refuse.
 */
export async function writeConversations(file: string, conversations: Iterable<ConversationInput>): Promise<number> {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  let fd: number;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(temporary, "w");
  } catch (error) {
    throw fileError(file, `cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  const out = createWriteStream("", { fd });
  // Errors of either stream surface here, once, whenever they happen.
  const done = finished(out);
  const sink: Writable = file.endsWith(".gz") ? createGzip() : out;
  if (sink !== out) {
    sink.on("error", (error) => out.destroy(error));
    sink.pipe(out);
  }
  let written = 0;
  try {
    for (const conversation of conversations) {
      const checked = conversationSchema.safeParse(conversation);
      if (!checked.success) throw new Error(`converted conversation ${JSON.stringify(conversation.id)} is not valid: ${checked.error.message}`);
      if (!sink.write(`${JSON.stringify(conversation)}\n`)) await once(sink, "drain");
      written += 1;
    }
    sink.end();
    await done;
  } catch (error) {
    sink.destroy();
    out.destroy();
    await done.catch(() => undefined);
    rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string") throw fileError(file, `cannot write (${code})`, { cause: error });
    throw error;
  }
  renameSync(temporary, file);
  return written;
}
