import { describe, expect, it } from "vitest";
import { modelEmbedder } from "../../src/model/embedder.js";
import { doubleEmbedding } from "./ollama-test-double.js";
import { scriptedClient } from "./scripted-client.js";

describe("modelEmbedder", () => {
  it("embeds a batch in one call, as Float32Arrays, under its model id, which names the provider", async () => {
    const client = scriptedClient([]);
    const embedder = modelEmbedder(client, "nomic-embed-text", { seed: 1 });
    const vectors = await embedder.embed(["a", "b"]);
    expect(embedder.model).toBe("ollama:nomic-embed-text");
    expect(client.embeds).toEqual([{ model: "nomic-embed-text", input: ["a", "b"], options: { seed: 1 } }]);
    expect(vectors.map((v) => v instanceof Float32Array)).toEqual([true, true]);
    expect(Array.from(vectors[1]!)).toEqual(Array.from(Float32Array.from(doubleEmbedding("b"))));
  });

  it("makes no call for no texts", async () => {
    const client = scriptedClient([]);
    expect(await modelEmbedder(client).embed([])).toEqual([]);
    expect(client.embeds).toHaveLength(0);
  });
});
