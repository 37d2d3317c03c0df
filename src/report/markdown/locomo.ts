import { z } from "zod";
import { importStatsSchema } from "../../datasets/conversations/index.js";
import { locomoConversionStatsSchema } from "../../datasets/locomo/index.js";
import { ALL_GROUP, findRow } from "../../harness/summary/summarise.js";
import type { ExperimentView } from "./section-providers.js";
import { code } from "./escape.js";
import { formatInterval, formatSigned, formatUnits } from "./format.js";
import { markdownTable } from "./table.js";

/**
 * The published reference for LoCoMo retrieval (the dataset's notes): an independent BM25
 * (k1 = 1.5, b = 0.75, English stopwords, one document per turn plus its image caption, within
 * each conversation) over the 1,531 questions of categories 1–4 that have a valid evidence id.
 * These are someone else's figures, quoted to compare against, not results of this project.
 */
const REFERENCE = {
  questions: 1531,
  rows: [
    { group: ALL_GROUP, label: "all 1–4", metric: "recall_any@5", value: 0.512 },
    { group: ALL_GROUP, label: "all 1–4", metric: "recall_any@10", value: 0.596 },
    { group: ALL_GROUP, label: "all 1–4", metric: "recall_all@5", value: 0.434 },
    { group: "1 multi-hop", label: "1 multi-hop", metric: "recall_any@5", value: 0.302 },
    { group: "1 multi-hop", label: "1 multi-hop", metric: "recall_any@10", value: 0.441 },
    { group: "1 multi-hop", label: "1 multi-hop", metric: "recall_all@5", value: 0.043 },
  ],
};

/** The ablation that matches the reference's method: BM25 relevance alone. */
const REFERENCE_ABLATION = "relevance-only-bm25";

const recordedStats = importStatsSchema.extend({ locomo: locomoConversionStatsSchema });

const isLocomo = ({ results }: ExperimentView) => results.manifest.datasets.some((d) => d.name.startsWith("LoCoMo"));

/** A LoCoMo experiment's own section: what was imported, and the comparison with the published reference. */
export function locomoSection(_context: unknown, first: ExperimentView, runs: readonly ExperimentView[] = [first]): string {
  if (!isLocomo(first)) return "";
  // The reference asked every question after the last session: compare the run that does.
  const view = runs.find((r) => (r.results.experiment.protocol ?? "end") === "end");
  const { results } = first;
  const parsed = recordedStats.safeParse(results.experiment.importStats);
  const stats = parsed.success ? parsed.data : undefined;
  const out: string[] = ["### LoCoMo", ""];
  if (stats) {
    const c = stats.locomo;
    out.push(
      "Each sample of locomo10.json is converted to the conversation format, then imported like any conversation file " +
        `(see the import table above). Converting rewrote ${c.evidenceRewritten} malformed evidence strings (several ids in one ` +
        `string, split on ";", "," and spaces, or zero-padded ids such as "D30:05"), dropped ${c.evidenceNotIds} evidence ` +
        `pieces that are not ids, kept ${c.duplicateTurnIds} repeated turn ids under suffixed ids, and dropped ` +
        `${c.observationsWithoutSession} observations of sessions that have no turns.`,
      "",
    );
  }
  out.push(
    `Settings: a retrieved observation ${results.experiment.matchSource ? "counts" : "does not count"} for its source turn ` +
      `(\`matchSource: ${results.experiment.matchSource}\`), so ranks are those of the evidence turns themselves. ` +
      "LoCoMo has no importance ratings, so every memory is unrated (see Importance above). " +
      "Each category keeps its official id beside its name.",
    "",
  );

  if (view === undefined) return out.join("\n");
  const { summary } = view;
  const references = REFERENCE.rows.filter((r) => summary.metrics.includes(r.metric) && summary.groups.includes(r.group));
  if (summary.ablations.includes(REFERENCE_ABLATION) && references.length > 0) {
    out.push("#### Against the published BM25 reference", "");
    const units = findRow(summary, REFERENCE_ABLATION, references[0].metric, references[0].group).value;
    out.push(`95% CIs over ${formatUnits(summary.unit, units)} (the multi-hop rows over that category's asks).`, "");
    out.push(
      markdownTable(
        ["Questions", "Metric", { header: "Reference", align: "right" }, `${code(REFERENCE_ABLATION)} [95% CI]`, { header: "Δ", align: "right" }],
        references.map((ref) => {
          const ours = findRow(summary, REFERENCE_ABLATION, ref.metric, ref.group).value;
          return [ref.label, ref.metric, ref.value.toFixed(3), formatInterval(ours), formatSigned(ours.mean - ref.value)];
        }),
      ),
      "",
      `Why the figures differ: the reference scored ${REFERENCE.questions} questions; this import asks ` +
        `${stats?.asked ?? "its"} because it repairs malformed evidence ids (such as "D8:6; D9:17" and "D30:05") ` +
        "that exact matching drops. Each conversation's BM25 corpus here also holds its observations, which changes " +
        "document frequencies and the average document length. Text is tokenised into lower-case words with the " +
        "possessive 's dropped and a built-in English stopword list, and each turn's text starts with the speaker's name. " +
        "The means are over all seeds; BM25 alone ignores question order, so every seed ranks the same.",
      "",
    );
  }
  return out.join("\n");
}
