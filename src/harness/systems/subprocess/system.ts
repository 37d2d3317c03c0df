/**
 * A memory system in another process, in any language, speaking the subprocess protocol (see
 * protocol.ts and the README's "Evaluate your own memory system"). The process is started on the
 * first open and serves every later scope; after a failure it is stopped, and the next open
 * starts a fresh one, so a skipped trial does not take the rest of the run with it.
 */
import { SystemError, type MemorySystem, type SystemCall, type SystemScope } from "../contract.js";
import { excerpt, type ProcessSpec, SystemProcess } from "./process.js";
import { type Method, PROTOCOL, RESULTS } from "./protocol.js";

export interface SubprocessSpec extends ProcessSpec {
  /** The system's name in the experiment, sent in the handshake. */
  name: string;
  options: Record<string, unknown>;
}

export function subprocessSystem(spec: SubprocessSpec): MemorySystem {
  let running: SystemProcess | undefined;

  const call = async (method: Method, params: unknown): Promise<unknown> => {
    const process = running;
    if (process === undefined) throw new SystemError(method as SystemCall, "the process is not running");
    const reply = await process.request(method as SystemCall, method, params);
    if (reply.error !== undefined) {
      await process.kill();
      throw new SystemError(method as SystemCall, `replied with error ${reply.error.code}: ${excerpt(reply.error.message, 300)}`);
    }
    const result = RESULTS[method].safeParse(reply.result);
    if (!result.success) {
      await process.kill();
      const issue = result.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at result.${issue.path.map(String).join(".")}` : "";
      throw new SystemError(method as SystemCall, `replied with a result the protocol does not allow${where}: ${issue?.message ?? "invalid"}`);
    }
    return result.data;
  };

  const start = async (): Promise<void> => {
    if (running?.alive) return;
    running = new SystemProcess(spec);
    try {
      await call("initialize", { protocol: PROTOCOL, name: spec.name, options: spec.options });
    } catch (error) {
      // The handshake is part of starting; a wrong protocol version says so in the error.
      if (error instanceof SystemError) throw new SystemError("start", error.problem, { cause: error });
      throw error;
    }
  };

  return {
    async open(scope): Promise<SystemScope> {
      await start();
      await call("open", { scope });
      return {
        async write(memories) {
          await call("write", { scope, memories });
        },
        async retrieve(query) {
          const result = (await call("retrieve", { scope, query: query.query, now: query.now, budget: query.budget })) as {
            ids: string[];
            block?: string;
          };
          return result.block === undefined ? { ids: result.ids } : { ids: result.ids, block: result.block };
        },
        async close() {
          await call("close", { scope });
        },
      };
    },
    async shutdown() {
      const process = running;
      running = undefined;
      if (process === undefined || !process.alive) return;
      try {
        await process.request("shutdown", "shutdown", {});
      } catch {
        // A system that fails to say goodbye is stopped all the same.
      }
      await process.waitForExit();
    },
  };
}
