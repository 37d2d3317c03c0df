// A thread that summarises one experiment for summariseAll: it registers the TypeScript loader
// (worker threads start without the main thread's), loads summarise, and answers the one message
// it is sent ({ results, options }) with { summary } or { error }.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { summarise } = await import("./summarise.ts");

parentPort.once("message", ({ results, options }) => {
  try {
    parentPort.postMessage({ summary: summarise(results, options) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
