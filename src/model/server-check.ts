/**
 * A cheap look at the server before real work: GET /api/tags fails fast when nothing listens,
 * and tells whether the models a command needs are pulled.
 */
import { modelMissing } from "./errors.js";
import type { ModelClient, ModelInfo } from "./types.js";

/** Ollama lists untagged models as `name:latest`. */
export function findModel(models: readonly ModelInfo[], model: string): ModelInfo | undefined {
  const wanted = model.includes(":") ? model : `${model}:latest`;
  return models.find((m) => m.name === model || m.name === wanted);
}

/** Throws the server-down or model-missing error; returns the listed info of each model. */
export async function checkServer(client: ModelClient, models: readonly string[]): Promise<ModelInfo[]> {
  const listed = await client.listModels();
  return models.map((model) => {
    const found = findModel(listed, model);
    if (!found) throw modelMissing(client.host, model);
    return found;
  });
}
