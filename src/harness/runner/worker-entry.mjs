// Worker threads start without the TypeScript loader of the main thread, so each registers it
// (tsx's API) before loading the trial runner.
import { register } from "tsx/esm/api";

register();
const worker = await import("./worker.ts");

export default worker.default;
export const teardown = worker.teardown;
