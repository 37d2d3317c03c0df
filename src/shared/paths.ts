import { fileURLToPath } from "node:url";

/** The repository root, found from this file's place in src/shared/. */
export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
