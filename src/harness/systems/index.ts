/** Memory systems behind one contract: recollect's own, the baselines, a module, a subprocess. */
export * from "./contract.js";
export { BASELINE_NAMES, BASELINE_SYSTEMS, type BaselineName } from "./baselines.js";
export { type Embedding, type EmbeddingSource, NO_EMBEDDINGS, type NamedPolicy, recollectSystem, RecollectScope } from "./recollect.js";
export { describeSystem, DEFAULT_SYSTEM_TIMEOUT_MS, type SystemEntry, systemEntrySchema, type SystemInfo, systemInfoSchema, type SystemRef } from "./spec.js";
export { SystemHost, type TrialResources } from "./host.js";
export { PROTOCOL, protocolJsonSchemas } from "./subprocess/protocol.js";
