import { writeConversations } from "../../datasets/conversations/index.js";
import {
  categoryLabel,
  chosenCategories,
  emptyConversionStats,
  LOCOMO_CATEGORY_IDS,
  loadLocomo,
  locomoToConversation,
} from "../../datasets/locomo/index.js";
import type { ConvertArgs, Log } from "../app.js";

/**
 * Writes a benchmark file in the conversation JSON Lines format, so it can be read, edited and
 * run like any other conversation file. The converter reads any version of the LoCoMo file: the
 * pinned hash matters for comparing results, not for converting.
 */
export async function convertCommand(args: ConvertArgs, log: Log): Promise<void> {
  const { samples, sha256 } = loadLocomo(args.input, { expectedSha256: false });
  const keep = new Set(chosenCategories(args.categories ?? LOCOMO_CATEGORY_IDS).map(categoryLabel));
  const stats = emptyConversionStats();
  const conversations = samples.map((sample) => {
    const conversation = locomoToConversation(sample, stats);
    return { ...conversation, questions: conversation.questions.filter((q) => keep.has(q.category ?? "")) };
  });
  const written = await writeConversations(args.output, conversations);
  const questions = conversations.reduce((n, c) => n + c.questions.length, 0);
  log(
    `convert: wrote ${written} conversations (${questions} questions of categories ${[...keep].join(", ")}) from ${args.input} ` +
      `(sha256 ${sha256}) to ${args.output}; rewrote ${stats.evidenceRewritten} malformed evidence strings, ` +
      `dropped ${stats.evidenceNotIds} evidence pieces that are not ids and ${stats.observationsWithoutSession} observations ` +
      `of sessions without turns, and kept ${stats.duplicateTurnIds} repeated turn ids under suffixed ids`,
  );
}
