/**
 * `embedding`: cosine between the query vector and each stored vector, read from the scope's
 * contiguous embedding array. Vectors from different models are not comparable, so a query from
 * another model than a current memory's is an error, never a silent mismatch. A memory without
 * an embedding has relevance 0.
 */
import type { ScopeIndex } from "../store/index-columns.js";
import { dotLanes } from "../vector/lanes.js";
import type { RelevanceInput, RelevanceScores } from "./types.js";

export function embeddingRelevance({ index, query, now }: RelevanceInput): RelevanceScores {
  if (query.embedding === undefined) {
    throw new Error("the embedding relevance backend needs query.embedding (a vector and its model)");
  }
  const { model, vector } = query.embedding;
  if (index.dim > 0 && vector.length !== index.dim) {
    throw new Error(
      `query embedding has ${vector.length} dimensions; scope "${index.scope}" stores ${index.dim}`,
    );
  }
  const modelCode = index.models.indexOf(model);
  // With another model in the scope, every current memory's model has to be checked.
  if (index.models.length > (modelCode === -1 ? 0 : 1)) requireQueryModel(index, modelCode, model, now);
  const queryNorm = Math.sqrt(dotLanes(vector, 0, vector, 0, vector.length));
  // Every slot's cosine in one bulk pass (SIMD on large scopes), written into the values
  // themselves: no second array of a value per slot, and no second pass over them (not even one
  // zeroing them first). Slots that are not current get values too; no ranking reads them.
  const vectors = index.vectors;
  const written = vectors !== null && queryNorm !== 0;
  const values = index.scoresBuffer(written);
  // Without products every value is 0, so 0 bounds them all.
  const largest = written ? vectors.cosines(vector, queryNorm, index.size, values) : 0;
  return { values, matched: null, scaleToCandidates: false, largest };
}

function requireQueryModel(index: ScopeIndex, modelCode: number, model: string, now: number): void {
  for (let slot = 0; slot < index.size; slot++) {
    const code = index.embeddingModel[slot];
    if (code === -1 || code === modelCode || !index.isCurrent(slot, now)) continue;
    throw new Error(
      `query embedded with "${model}" but memory ${index.ids[slot]} was embedded with ` +
        `"${index.models[code]}"; embed queries and memories with one model`,
    );
  }
}
