// The heartbeat thread starts without the TypeScript loader of the main thread, so it registers
// it (tsx's API) before loading its code, as the trial workers do.
import { register } from "tsx/esm/api";

register();
await import("./thread.ts");
