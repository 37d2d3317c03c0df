import { schemaCheck } from "../../harness/files/load-yaml.js";
import { fileError } from "../../shared/errors.js";
import { parseJson } from "../../shared/read-json.js";
import { readLines } from "./lines.js";
import { type Conversation, conversationSchema } from "./schema.js";

const checkConversation = schemaCheck(conversationSchema);

export interface ConversationLine {
  /** Where it is, for messages: "data.jsonl:12". */
  where: string;
  conversation: Conversation;
}

export interface ConversationSource {
  conversations: AsyncGenerator<ConversationLine>;
  /** sha256 of the file's bytes; known once every conversation has been read. */
  sha256(): string;
}

/**
 * The conversations of a JSON Lines file, one at a time. Anything that is not a conversation
 * (not JSON, a missing field, a wrong type, an id used twice) is a FileError naming the file, the
 * line and the path inside it. Blank lines are skipped.
 */
export function readConversations(file: string, display = file): ConversationSource {
  const source = readLines(file, display);
  async function* conversations(): AsyncGenerator<ConversationLine> {
    const seen = new Map<string, number>();
    for await (const { number, text } of source.lines) {
      if (text.trim() === "") continue;
      const where = `${display}:${number}`;
      const conversation = parseJson(where, text, checkConversation);
      const earlier = seen.get(conversation.id);
      if (earlier !== undefined) throw fileError(where, `at id: conversation id "${conversation.id}" is already used on line ${earlier}`);
      seen.set(conversation.id, number);
      yield { where, conversation };
    }
    if (seen.size === 0) throw fileError(display, "holds no conversation (expected one JSON object per line)");
  }
  return { conversations: conversations(), sha256: () => source.sha256() };
}
