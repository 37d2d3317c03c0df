#!/usr/bin/env node
// The command line is TypeScript run as it is, without a build step, so the bin registers the
// TypeScript loader (tsx's API, a runtime dependency) before loading it, as the worker threads do.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
