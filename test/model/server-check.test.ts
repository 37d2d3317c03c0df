import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OllamaClient } from "../../src/model/client.js";
import { checkServer, findModel } from "../../src/model/server-check.js";
import { startOllamaDouble, type OllamaDouble } from "./ollama-test-double.js";

let double: OllamaDouble;
beforeEach(async () => {
  double = await startOllamaDouble();
});
afterEach(() => double.stop());

describe("findModel", () => {
  it("matches an untagged name to its :latest entry", () => {
    const models = [{ name: "nomic-embed-text:latest", digest: "d1" }, { name: "gemma4:e2b", digest: "d2" }];
    expect(findModel(models, "nomic-embed-text")?.digest).toBe("d1");
    expect(findModel(models, "gemma4:e2b")?.digest).toBe("d2");
    expect(findModel(models, "gemma4")).toBeUndefined();
  });
});

describe("checkServer", () => {
  it("returns the listed info of each model needed", async () => {
    const client = new OllamaClient({ host: double.host });
    expect(await checkServer(client, ["gemma4:e2b", "nomic-embed-text"])).toEqual([
      { name: "gemma4:e2b", digest: "sha256:double-gemma4-e2b" },
      { name: "nomic-embed-text:latest", digest: "sha256:double-nomic-embed-text" },
    ]);
  });

  it("names the first model that is not pulled", async () => {
    const client = new OllamaClient({ host: double.host });
    await expect(checkServer(client, ["gemma4:e2b", "qwen3:4b"])).rejects.toThrow(
      `model qwen3:4b not found on ${double.host}: run \`ollama pull qwen3:4b\``,
    );
  });
});
