/** The conversation JSON Lines format: its schema, a streaming reader, and the one path from a conversation to a scenario. */
export { ASK_PROTOCOLS, type AskProtocol, askTime, type ProtocolSettings } from "./ask-time.js";
export { importConversations, type ImportedFile, type ImportedScenarios, ScenarioCollector } from "./import.js";
export { conversationJsonSchema } from "./json-schema.js";
export { MAX_LINE_BYTES } from "./lines.js";
export { readConversations } from "./read.js";
export { type Conversation, conversationSchema, type Question, type Session } from "./schema.js";
export { emptyImportStats, type ImportStats, importStatsSchema, listedRepairs, REPAIRS, repairCount, repairSummary, type RepairKey } from "./stats.js";
export { conversationToScenario, type ScenarioOptions } from "./to-scenario.js";
export { type ConversationInput, writeConversations } from "./write.js";
