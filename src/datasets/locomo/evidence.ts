/**
 * Evidence ids in LoCoMo are dialogue ids such as "D8:6". A few are malformed in the published
 * file: several ids in one string ("D8:6; D9:17", "D9:1 D4:4"), zero-padded turns ("D30:05"), or
 * ids of turns that do not exist. This recovers what can be recovered and reports the rest.
 */

const DIA_ID = /^D(\d+):(\d+)$/;

/** "D30:05" → "D30:5", "D08:6" → "D8:6"; anything not shaped like a dialogue id is returned as is. */
export function canonicalDiaId(id: string): string {
  const match = DIA_ID.exec(id);
  if (!match) return id;
  return `D${Number(match[1])}:${Number(match[2])}`;
}

export interface NormalisedEvidence {
  /** Valid ids, in first-seen order, without repeats. */
  ids: string[];
  /** Pieces that match no turn, as they appeared after splitting. */
  dropped: string[];
}

/**
 * Split each raw id on `;`, `,` and whitespace, canonicalise zero-padded numbers, and keep what
 * names a turn in `validIds`. (Commas are not in the question evidence, but observation sources
 * use them: "D26:14, D26:34".)
 */
export function normaliseEvidence(raw: readonly string[], validIds: ReadonlySet<string>): NormalisedEvidence {
  const ids: string[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    for (const piece of entry.split(/[;,\s]+/)) {
      if (piece === "") continue;
      const id = canonicalDiaId(piece);
      if (!validIds.has(id)) {
        dropped.push(piece);
      } else if (!seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
  }
  return { ids, dropped };
}
