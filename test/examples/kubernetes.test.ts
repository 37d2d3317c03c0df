import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { SHARD_SOURCES, shardFromEnvironment } from "../../src/cli/shard.js";
import { repoPath } from "../harness/temp-files.js";

interface Container {
  command?: string[];
  args: string[];
  env?: { name: string; value: string }[];
  volumeMounts: { name: string; mountPath: string }[];
}
interface JobFile {
  apiVersion: string;
  kind: string;
  spec: { completionMode?: string; completions?: number; parallelism?: number; template: { spec: { restartPolicy: string; containers: Container[] } } };
}

const read = (name: string) => parse(readFileSync(repoPath(`examples/kubernetes/${name}`), "utf8")) as JobFile;
const kubernetes = SHARD_SOURCES.find((s) => s.engine === "a Kubernetes Indexed Job")!;

/** The Kubernetes example: an Indexed Job of shards whose pods tell --shard auto which they are, and a merge Job. */
describe("examples/kubernetes", () => {
  const shards = read("shards-job.yaml");
  const merge = read("merge-job.yaml");
  const [pod] = shards.spec.template.spec.containers;

  it("is an Indexed Job whose pods run the experiment with --shard auto", () => {
    expect([shards.apiVersion, shards.kind, shards.spec.completionMode]).toEqual(["batch/v1", "Job", "Indexed"]);
    expect(pod!.args.join(" ")).toMatch(/^npx recollect experiment experiments\/core\.yaml --shard auto --out \/out/);
    expect(shards.spec.parallelism).toBeLessThanOrEqual(shards.spec.completions!);
  });

  it("sets the completion count the code reads, equal to the Job's completions", () => {
    const env = Object.fromEntries(pod!.env!.map((e) => [e.name, e.value]));
    expect(env[kubernetes.count]).toBe(String(shards.spec.completions));
    // Kubernetes sets the index itself; the pod with index 1 runs shard 2 of the Job's completions.
    expect(shardFromEnvironment({ ...env, [kubernetes.index]: "1" })).toMatchObject({ index: 2, count: shards.spec.completions });
  });

  it("merges every shard the Job writes, from the volume both mount", () => {
    const [merger] = merge.spec.template.spec.containers;
    const script = [...(merger!.command ?? []), ...merger!.args].join(" ");
    expect(script).toContain(`npx recollect merge /out/results/shards/core.*-of-${shards.spec.completions}.json --out /out/results/core.json`);
    expect(merger!.volumeMounts).toEqual(pod!.volumeMounts);
  });

  it("is described in a README that names the variables", () => {
    const readme = readFileSync(repoPath("examples/kubernetes/README.md"), "utf8");
    for (const name of [kubernetes.index, kubernetes.count, "shards-job.yaml", "merge-job.yaml"]) expect(readme).toContain(name);
  });
});
