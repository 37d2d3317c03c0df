/**
 * `embedding`: cosine between the query vector and each stored vector, read from the scope's
 * contiguous embedding array. Vectors from different models are not comparable, so a query from
 * another model than a current memory's is an error, never a silent mismatch. A memory without
 * an embedding has relevance 0.
 */
import type { RelevanceInput, RelevanceScores } from "./index.js";

export function embeddingRelevance({ index, query, now }: RelevanceInput): RelevanceScores {
  if (query.embedding === undefined) {
    throw new Error("the embedding relevance backend needs query.embedding (a vector and its model)");
  }
  const { model, vector } = query.embedding;
  const values = new Float64Array(index.size);
  if (index.dim > 0 && vector.length !== index.dim) {
    throw new Error(
      `query embedding has ${vector.length} dimensions; scope "${index.scope}" stores ${index.dim}`,
    );
  }
  const modelCode = index.models.indexOf(model);
  let queryNormSquared = 0;
  for (let i = 0; i < vector.length; i++) queryNormSquared += vector[i] * vector[i];
  const queryNorm = Math.sqrt(queryNormSquared);
  const dim = index.dim;
  for (let slot = 0; slot < index.size; slot++) {
    const code = index.embeddingModel[slot];
    if (code === -1 || !index.isCurrent(slot, now)) continue;
    if (code !== modelCode) {
      throw new Error(
        `query embedded with "${model}" but memory ${index.ids[slot]} was embedded with ` +
          `"${index.models[code]}"; embed queries and memories with one model`,
      );
    }
    const norm = index.embeddingNorm[slot];
    if (queryNorm === 0 || norm === 0) continue;
    let dot = 0;
    const base = slot * dim;
    for (let i = 0; i < dim; i++) dot += vector[i] * index.embeddings[base + i];
    values[slot] = dot / (queryNorm * norm);
  }
  return { values, matched: null, scaleToCandidates: false };
}
