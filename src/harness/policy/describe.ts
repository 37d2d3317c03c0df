/**
 * Descriptions of retrieval policies, generated from the policies themselves so that a report
 * can never say one thing while the patch does another. A policy is described by what each of
 * its sections effectively does (the section's own score overrides merged over the policy's,
 * the kind's own decay rate), and an ablation by the settings in which it differs from the
 * baseline.
 */
import { HYBRID_DEFAULTS, KINDS, type Kind, needsEmbedding, type PlannedSection, type RetrievalPolicy, type ScoreConfig, type SectionName, sectionPlan } from "../../memory/index.js";

const UNITS: readonly [number, string][] = [
  [604_800_000, "week"],
  [86_400_000, "day"],
  [3_600_000, "hour"],
  [60_000, "minute"],
];

interface Setting {
  label: string;
  value: string;
}

/** One sentence-like summary of everything a policy does. */
export function describePolicy(policy: RetrievalPolicy): string {
  const sections = sectionPlan(policy).map((section) => {
    const settings = sectionSettings(section).map((s) => `${s.label} ${s.value}`);
    return `${section.name}: ${settings.join(", ")}`;
  });
  const layout = policy.mode === "pooled" ? "one pooled section" : "a section per kind";
  return `${layout} (${sections.join("; ")}); ${globalSettings(policy).map((s) => `${s.label} ${s.value}`).join(", ")}`;
}

/**
 * What `variant` changes relative to `base`, e.g. "weights (rel, rec, imp) [1, 1, 1] → [1, 0, 0]
 * in semantic, episodic, procedural; touch on → off". Only settings that take effect are
 * compared: a pooled section's rule does not matter to a per-kind policy, nor the score of a
 * section ordered by time.
 */
export function describeChanges(base: RetrievalPolicy, variant: RetrievalPolicy): string {
  const changes: string[] = [];
  if (base.mode !== variant.mode) {
    const sections = sectionPlan(variant)
      .map((section) => `${section.name}: ${sectionSettings(section).map((s) => `${s.label} ${s.value}`).join(", ")}`)
      .join("; ");
    changes.push(`sections ${base.mode} → ${variant.mode} (${sections})`);
  } else {
    // The same change in several sections is stated once, naming the sections.
    const grouped = new Map<string, SectionName[]>();
    // Both policies have the same mode, so the same sections in the same order.
    const bases = sectionPlan(base);
    for (const [i, section] of sectionPlan(variant).entries()) {
      const before = new Map(sectionSettings(bases[i]).map((s) => [s.label, s.value]));
      for (const setting of sectionSettings(section)) {
        const from = before.get(setting.label);
        if (from === setting.value) continue;
        // A setting that only now takes effect (recency given a weight, say) has no "before";
        // one that stops taking effect is implied by the change that stopped it.
        const key = from === undefined ? `${setting.label} ${setting.value}` : `${setting.label} ${from} → ${setting.value}`;
        grouped.set(key, [...(grouped.get(key) ?? []), section.name]);
      }
    }
    for (const [change, names] of grouped) changes.push(variant.mode === "pooled" ? change : `${change} in ${names.join(", ")}`);
  }
  const before = new Map(globalSettings(base).map((s) => [s.label, s.value]));
  for (const setting of globalSettings(variant)) {
    if (before.get(setting.label) !== setting.value) changes.push(`${setting.label} ${before.get(setting.label)} → ${setting.value}`);
  }
  return changes.length === 0 ? "no change" : changes.join("; ");
}

function globalSettings(policy: RetrievalPolicy): Setting[] {
  return [
    { label: "touch", value: onOff(policy.touch) },
    { label: "write-back", value: onOff(policy.writeBack) },
  ];
}

/** The settings that decide what a section keeps, in a fixed order. */
function sectionSettings({ name, rule, score }: PlannedSection): Setting[] {
  const settings: Setting[] = [{ label: "order", value: rule.order === "newest" ? "newest first" : "by score" }];
  if (rule.order === "score") settings.push(...scoreSettings(score, name));
  settings.push(
    { label: "at most", value: `${rule.limit} items` },
    { label: "quota", value: rule.quota === null ? "unbounded" : `${rule.quota} tokens` },
    { label: "fit", value: rule.fit },
  );
  if (rule.requireRelevance) settings.push({ label: "candidates", value: "relevant only" });
  return settings;
}

function scoreSettings(score: ScoreConfig, name: SectionName): Setting[] {
  const rates = name === "pooled" ? KINDS.map((kind) => `${kind} ${decayOf(score, kind)}`).join(", ") : String(decayOf(score, name));
  const settings: Setting[] = [
    { label: "weights (rel, rec, imp)", value: `[${score.weights.join(", ")}]` },
    { label: "relevance", value: score.relevance },
  ];
  if (needsEmbedding(score.relevance) && score.embeddingModel !== undefined) settings.push({ label: "embedding model", value: score.embeddingModel });
  if (score.relevance === "hybrid") {
    const { fusion, weight, k } = { ...HYBRID_DEFAULTS, ...score.hybrid };
    settings.push({ label: "fusion", value: fusion === "rrf" ? `reciprocal rank (k ${k}), embedding weight ${weight}` : `convex, embedding weight ${weight}` });
  }
  // Recency, and with it its decay, only matters when it is weighed.
  if (score.weights[1] !== 0 || score.normalise === "minmax") {
    if (score.recency === "rank") {
      const first = score.recencyOrder === "ascending" ? "least" : "most";
      settings.push({ label: "recency", value: `by position in last-access order, the ${first} recently accessed first` });
      settings.push({ label: "decay", value: `${rates} per position` });
    } else {
      settings.push({ label: "decay", value: `${rates} per ${unitName(score.unitMs)}` });
    }
  }
  if (score.normalise !== "none") settings.push({ label: "normalise", value: score.normalise });
  if (score.stopwords !== undefined) settings.push({ label: "stopwords", value: score.stopwords ? "removed" : "kept" });
  return settings;
}

function decayOf(score: ScoreConfig, kind: Kind): number {
  return score.kindDecay[kind] ?? score.decayRate;
}

function unitName(ms: number): string {
  const unit = UNITS.find(([size]) => ms === size);
  return unit === undefined ? `${ms} ms` : unit[1];
}

function onOff(value: boolean): string {
  return value ? "on" : "off";
}
