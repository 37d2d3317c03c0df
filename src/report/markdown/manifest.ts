import type { ExperimentResults } from "../../harness/results/types.js";
import { code, escapeMarkdown } from "./escape.js";
import { markdownTable } from "./table.js";

export function renderManifest(results: ExperimentResults): string {
  const { manifest } = results;
  const packages = Object.entries(manifest.packages)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, version]) => code(`${name}@${version}`))
    .join(", ");
  const datasets =
    manifest.datasets.length === 0
      ? "none"
      : manifest.datasets
          .map((d) => `${escapeMarkdown(d.name)}: ${code(d.sha256)}${d.note === undefined ? "" : ` (${escapeMarkdown(d.note)})`}`)
          .join("; ");
  return [
    "## Manifest",
    markdownTable(
      ["Field", "Value"],
      [
        ["Git commit", `${code(manifest.gitCommit)}${manifest.gitDirty ? " (uncommitted changes)" : " (clean)"}`],
        ["Node", code(manifest.node)],
        ["Packages", packages === "" ? "none" : packages],
        ["Tokenizer sha256", code(manifest.tokenizerSha256)],
        ["Datasets", datasets],
        ["Experiment hash", code(manifest.experimentHash)],
        ["Wall time", `${(manifest.wallTimeMs / 1000).toFixed(1)} s`],
      ],
    ),
  ].join("\n\n");
}
