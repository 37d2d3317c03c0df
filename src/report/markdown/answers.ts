/**
 * EVALUATION.md's answer-level section. It is a pure function of two files: the recording set
 * the answers were replayed from and the graded results. It says which recordings exist and which
 * model made them; when none exist, or none come from a real model's weights, it shows no answer
 * accuracy at all.
 */
import { answerAccuracy } from "../../harness/answers/summary.js";
import { parseAnswers } from "../../harness/answers/io.js";
import { isRealDigest, summariseRecordings, type RecordingSummary } from "../../harness/answers/recordings.js";
import { ANSWER_RUN, type AnswerRunSpec } from "../../harness/answers/spec.js";
import type { AnswerResults } from "../../harness/answers/schema.js";
import type { ReportContext } from "../reporter.js";
import { code, escapeMarkdown } from "./escape.js";
import { formatInterval } from "./format.js";
import { markdownTable } from "./table.js";
import { isRecollectError } from "../../shared/errors.js";

const TITLE = "## Answer-level evaluation";

export function createAnswersSection(spec: AnswerRunSpec = ANSWER_RUN) {
  return (context: Pick<ReportContext, "readExisting">): string => renderAnswers(context, spec);
}

/** The registered section: the answer-level run as ANSWER_RUN describes it. */
export const answersSection = createAnswersSection();

function renderAnswers(context: Pick<ReportContext, "readExisting">, spec: AnswerRunSpec): string {
  const out: string[] = [TITLE, "", intro(spec), ""];
  const noAccuracy = "No answer accuracy is shown.";

  const recordingText = context.readExisting(spec.recordings);
  if (recordingText === undefined) {
    out.push(
      `No recordings exist: ${code(spec.recordings)} has not been recorded, so no answer was produced by any model. ` +
        `Recording needs a running Ollama: \`npm run record\`. ${noAccuracy}`,
    );
    return out.join("\n");
  }
  let summary: RecordingSummary;
  try {
    summary = summariseRecordings(spec.recordings, recordingText);
  } catch (error) {
    if (!isRecollectError(error)) throw error;
    // The message names the file itself.
    out.push(`The recordings cannot be read: ${escapeMarkdown(error.message)}. ${noAccuracy}`);
    return out.join("\n");
  }
  out.push("Recordings:", "", recordingsTable(summary), "");
  if (!summary.models.some((m) => isRealDigest(m.digest))) {
    out.push(
      "None of these recordings was made with a real model: no entry carries the sha256 digest of a model's weights " +
        `from an Ollama server's model list. ${noAccuracy}`,
    );
    return out.join("\n");
  }

  const resultsText = context.readExisting(spec.results);
  if (resultsText === undefined) {
    out.push(`${code(spec.results)} does not exist: re-run \`npm run record\` to grade the recorded answers. ${noAccuracy}`);
    return out.join("\n");
  }
  const results = parseAnswers(spec.results, resultsText);
  if (results.manifest.recordings.sha256 !== summary.sha256) {
    out.push(
      `${code(spec.results)} was graded from another version of ${code(spec.recordings)} (its sha256 differs): ` +
        `re-run \`npm run record\`. ${noAccuracy}`,
    );
    return out.join("\n");
  }
  out.push(...accuracy(results), "");
  return out.join("\n");
}

function intro(spec: AnswerRunSpec): string {
  return (
    `Each ask with answer keys in the scenarios of ${code(spec.experiment)} is answered by a language model from the ` +
    `block each condition retrieves (${spec.conditions.map((c) => `${code(c.name)}: ${escapeMarkdown(c.description)}`).join("; ")}), ` +
    `over the experiment's first seeds (${spec.seeds} by default). The seed sets the timeline and is also the model's sampling seed. ` +
    "Every memory's importance is rated by the model at write time (the Generative Agents poignancy prompt); a reply " +
    "without a number falls back to a stated default, and the fallbacks are counted. Answers are graded against the keys " +
    "after normalisation (case, accents, punctuation and articles removed; a key matches as whole words). Every call goes " +
    `through the record/replay layer, from ${code(spec.recordings)}.`
  );
}

function recordingsTable(summary: RecordingSummary): string {
  const range =
    summary.firstAt === null
      ? "—"
      : summary.firstAt === summary.lastAt
        ? escapeMarkdown(summary.firstAt)
        : `${escapeMarkdown(summary.firstAt)} – ${escapeMarkdown(summary.lastAt!)}`;
  return markdownTable(
    ["File", "Model", "Digest", { header: "Calls", align: "right" }, "Recorded"],
    (summary.models.length > 0 ? summary.models : [{ name: "—", digest: null }]).map((model, i) => [
      i === 0 ? code(summary.file) : "",
      escapeMarkdown(model.name),
      model.digest === null ? "none" : code(model.digest),
      i === 0 ? String(summary.calls) : "",
      i === 0 ? range : "",
    ]),
  );
}

function accuracy(results: AnswerResults): string[] {
  const rows = answerAccuracy(results);
  const models = results.manifest.models.map((m) => `${code(m.name)} (${m.digest === null ? "no digest" : code(m.digest)})`).join(", ");
  const lines = [
    `Answers by ${models}, seeds ${results.seeds.join(", ")}; means over asks (seeds averaged) with 95% intervals that treat the scenarios as the independent units.`,
    "",
    markdownTable(
      ["Condition", "Reflection", { header: "Asks", align: "right" }, "Keys matched [95% CI]", "Fully answered [95% CI]", { header: "Reflections", align: "right" }],
      rows.map((row) => {
        const condition = results.conditions.find((c) => c.name === row.condition)!;
        return [code(row.condition), condition.reflection ? "on" : "off", String(row.keys.n), formatInterval(row.keys), formatInterval(row.full), String(row.reflections)];
      }),
    ),
    "",
    `Importance: the model rated ${results.importance.rated} memories; ${results.importance.fallbacks} ` +
      `${results.importance.fallbacks === 1 ? "reply" : "replies"} held no number and fell back to the default ${results.importanceFallback}.`,
  ];
  const reflected = [...new Set(rows.flatMap((r) => r.reflectedIn))].sort();
  lines.push(
    "",
    reflected.length === 0
      ? `Reflection never ran: in no scenario did the summed rated importance of new memories reach ${results.reflectionThreshold}, ` +
          "so the conditions with and without reflection made the same calls."
      : `Reflection ran (threshold ${results.reflectionThreshold}) in ${reflected.map(code).join(", ")}; ` +
          `it wrote ${rows.reduce((sum, r) => sum + r.insights, 0)} insights in all.`,
  );
  return lines;
}
