/** Shared by the runner's tests: a trial of recollect under a policy, run as the runner runs it. */
import type { RetrievalPolicy, TokenCounter } from "../../../src/memory/index.js";
import type { Trial } from "../../../src/harness/results/types.js";
import { runTrial, type TrialInput } from "../../../src/harness/runner/trial.js";
import { SystemHost } from "../../../src/harness/systems/index.js";

type PolicyInput = Omit<TrialInput, "system" | "writeBack" | "budget"> & { policy: RetrievalPolicy } & Partial<Pick<TrialInput, "budget">>;

/** The trial input that runs recollect under `policy`, writing back as the policy says. */
export function policyInput({ policy, ...rest }: PolicyInput): TrialInput {
  return { budget: null, ...rest, system: { type: "recollect", policy }, writeBack: policy.writeBack };
}

/** A trial without its measured latencies, which differ from run to run. */
export function withoutLatency({ latency: _, ...trial }: Trial): Trial {
  return trial;
}

export async function runPolicyTrial(input: PolicyInput, tokens: TokenCounter): Promise<Trial> {
  return withoutLatency(await runTrial(policyInput(input), { tokens, host: new SystemHost() }));
}
