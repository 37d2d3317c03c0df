/**
 * Evidence ids in LoCoMo are dialogue ids such as "D8:6". A few are malformed in the published
 * file: several ids in one string ("D8:6; D9:17", "D9:1 D4:4"), zero-padded turns ("D30:05"), or
 * ids of turns that do not exist. This recovers the ids that can be recovered; the importer drops
 * and counts those that still name no turn.
 */

const DIA_ID = /^D(\d+):(\d+)$/;

/** "D30:05" → "D30:5", "D08:6" → "D8:6"; anything not shaped like a dialogue id is returned as is. */
export function canonicalDiaId(id: string): string {
  const match = DIA_ID.exec(id);
  if (!match) return id;
  return `D${Number(match[1])}:${Number(match[2])}`;
}

/**
 * The ids in one evidence string, split on `;`, `,` and whitespace and canonicalised. (Commas
 * are not in the question evidence, but observation sources use them: "D26:14, D26:34".)
 */
export function evidencePieces(entry: string): string[] {
  return entry
    .split(/[;,\s]+/)
    .filter((piece) => piece !== "")
    .map(canonicalDiaId);
}
