import { z } from "zod";
import { conversationSchema } from "./schema.js";

/** The JSON Schema of one line of a conversation JSON Lines file, derived from the zod schema the importer validates with. */
export function conversationJsonSchema(): object {
  return {
    title: "recollect conversation: one line of a conversation JSON Lines file",
    ...z.toJSONSchema(conversationSchema, { io: "input", unrepresentable: "any" }),
  };
}
