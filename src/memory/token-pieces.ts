/**
 * Why a line can be priced word by word. The pinned Gemma tokenizer replaces each space with "▁"
 * before its pre-tokenizer splits on spaces, so the pre-tokenizer never splits: BPE runs over a
 * whole line at once, which costs milliseconds per line in the JS implementation and defeats its
 * cache. In the pinned vocabulary, the only merge that joins a character other than "▁" to a
 * following "▁" is ">" + "▁</"; no added token contains a space, and none strips whitespace. So
 * at a space that follows any other character, no merge can ever join the two sides, BPE treats
 * them independently, and the count of the line is the sum of the counts of its pieces. The test
 * of this module checks those properties of the pinned files, and compares the two ways of
 * counting on real and random text.
 */

const SPACE = 0x20;
const METASPACE = 0x2581;
const GREATER_THAN = 0x3e;

/** `text` cut before each space that follows neither a space, a "▁" nor a ">"; the pieces join back to `text`. */
export function tokenPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    if (text.charCodeAt(i) !== SPACE) continue;
    const previous = text.charCodeAt(i - 1);
    if (previous === SPACE || previous === METASPACE || previous === GREATER_THAN) continue;
    pieces.push(text.slice(start, i));
    start = i;
  }
  pieces.push(text.slice(start));
  return pieces;
}
