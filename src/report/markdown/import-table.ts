import { importStatsSchema, listedRepairs, repairCount } from "../../datasets/conversations/index.js";
import type { ExperimentView } from "./section-providers.js";
import { code, escapeMarkdown } from "./escape.js";
import { markdownTable } from "./table.js";
import { plural } from "../../shared/errors.js";
import { byCodeUnit } from "../../shared/order.js";


/**
 * The import table of an experiment whose scenarios came from conversation data: what was read,
 * what became memories and asks, and one row per repair the data needed, with examples. The
 * checks that found nothing to repair are named in one sentence, so a reader sees every check
 * without a table row of zeros for each.
 */
export function importSection(_context: unknown, { results }: ExperimentView): string {
  const parsed = importStatsSchema.safeParse(results.experiment.importStats);
  if (!parsed.success) return "";
  const stats = parsed.data;
  const files = results.manifest.datasets.map((d) => (d.path === undefined ? escapeMarkdown(d.name) : code(d.path))).join(", ");
  const out = [
    "### Import",
    "",
    `From ${files}: read ${plural(stats.conversations, "conversation")} with ${plural(stats.sessions, "session")}, and imported ` +
      `${plural(stats.turns, "turn")} (episodic memories) and ${plural(stats.observations, "observation")} (semantic memories). ` +
      `Of ${plural(stats.questions, "question")}${stats.notChosen > 0 ? ` of the chosen categories (${stats.notChosen} others were left out)` : ""}, ` +
      `${stats.asked} were asked, in ${plural(stats.scenarios, "scenario")} (one per conversation with a question left to ask).`,
    "",
  ];
  const listed = listedRepairs(stats);
  const done = listed.filter((repair) => repairCount(stats, repair.key) > 0);
  const unneeded = listed.filter((repair) => repairCount(stats, repair.key) === 0).map((repair) => repair.what);
  if (done.length > 0) {
    out.push(
      markdownTable(
        ["Repair", "What the importer did", { header: "Count", align: "right" }, "Examples"],
        done.map((repair) => {
          const n = repairCount(stats, repair.key);
          const count = repair.key === "sessionsOutOfOrder" ? `${n} in ${plural(stats.conversationsOutOfOrder, "conversation")}` : String(n);
          return [repair.what, repair.done, count, (stats.examples[repair.key] ?? []).map(code).join(", ")];
        }),
      ),
      "",
    );
  }
  if (unneeded.length > 0) out.push(`${done.length === 0 ? "No repair was needed; checked" : "Checked and not needed"}: ${unneeded.join("; ")}.`, "");
  const categories = Object.entries(stats.categories).sort(([a], [b]) => byCodeUnit(a, b));
  if (categories.length > 1) {
    out.push(
      markdownTable(
        ["Category", { header: "Questions", align: "right" }, { header: "Asked", align: "right" }],
        categories.map(([category, c]) => [escapeMarkdown(category), String(c.questions), String(c.asked)]),
      ),
      "",
    );
  }
  return out.join("\n");
}
