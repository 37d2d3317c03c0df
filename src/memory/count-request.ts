/**
 * Counting a completed chat request. Quotas price memory lines only; the headers, tags and chat
 * template around them are counted here, on the request as it will be sent.
 */
import type { GemmaTokenizer } from "./tokenizer.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * Gemma's chat template as text: a system message is folded into the first user turn, the
 * assistant speaks as `model`, and the request ends with an open model turn. BOS is not written
 * here; the tokenizer adds it as a special token.
 */
export function applyGemmaChatTemplate(messages: readonly ChatMessage[]): string {
  let prefix = "";
  let rest = messages;
  if (messages[0]?.role === "system") {
    prefix = `${messages[0].content}\n\n`;
    rest = messages.slice(1);
  }
  let text = "";
  rest.forEach((message, i) => {
    const role = message.role === "assistant" ? "model" : message.role;
    const content = i === 0 ? prefix + message.content : message.content;
    text += `<start_of_turn>${role}\n${content.trim()}<end_of_turn>\n`;
  });
  if (rest.length === 0 && prefix !== "") {
    text += `<start_of_turn>user\n${prefix.trim()}<end_of_turn>\n`;
  }
  return `${text}<start_of_turn>model\n`;
}

/** Tokens of the whole request as sent: template, special tokens and all. */
export function countRequest(tokenizer: GemmaTokenizer, messages: readonly ChatMessage[]): number {
  return tokenizer.countWithSpecialTokens(applyGemmaChatTemplate(messages));
}
