import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OllamaClient } from "../../src/model/client.js";
import { ModelError } from "../../src/model/errors.js";
import { chatKey, createRecordingClient, embedKey } from "../../src/model/recorder.js";
import { readRecordings, recordingKey } from "../../src/model/recording-file.js";
import type { ChatRequest } from "../../src/model/types.js";
import { RecollectError } from "../../src/shared/errors.js";
import { startOllamaDouble, type OllamaDouble } from "./ollama-test-double.js";

const STAMP = "2025-06-01T12:00:00.000Z";
const question = (seed: number): ChatRequest => ({
  model: "gemma4:e2b",
  messages: [
    { role: "system", content: "You remember things." },
    { role: "user", content: "Which database did we choose for the project, and why was it chosen?" },
  ],
  options: { seed, temperature: 0.7 },
});

let dir: string;
let file: string;
let double: OllamaDouble;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "recollect-recorder-"));
  file = join(dir, "recordings", "demo.json");
  double = await startOllamaDouble();
});
afterEach(async () => {
  await double.stop();
  rmSync(dir, { recursive: true, force: true });
});

function recorder() {
  return createRecordingClient({ mode: "record", file, live: new OllamaClient({ host: double.host }), timestamp: () => STAMP });
}

describe("record then replay", () => {
  it("replays the recorded answers with the server stopped", async () => {
    const recorded = await recorder().chat(question(1));
    const vectors = await recorder().embed({ model: "nomic-embed-text", input: ["soup", "salad"] });
    await double.stop();

    const replay = createRecordingClient({ mode: "replay", file });
    expect(await replay.chat(question(1))).toEqual(recorded);
    expect(await replay.embed({ model: "nomic-embed-text", input: ["soup", "salad"] })).toEqual(vectors);
  });

  it("writes a reviewable file with request, response, model digest and the caller's timestamp", async () => {
    const reply = await recorder().chat(question(1));
    const text = readFileSync(file, "utf8");
    const entries = JSON.parse(text).entries;
    const key = recordingKey(chatKey(question(1)));
    expect(Object.keys(entries)).toEqual([key]);
    expect(entries[key]).toEqual({
      request: { kind: "chat", ...question(1) },
      response: { content: reply.content },
      model: { name: "gemma4:e2b", digest: "sha256:double-gemma4-e2b" },
      recordedAt: STAMP,
    });
    expect(text).toContain('\n  "entries": {\n');
    expect(text.indexOf('"model"')).toBeLessThan(text.indexOf('"recordedAt"'));
  });

  it("keeps one entry per seed, each replaying its own answer", async () => {
    const one = await recorder().chat(question(1));
    const two = await recorder().chat(question(2));
    expect(one.content).not.toBe(two.content);
    await double.stop();
    const replay = createRecordingClient({ mode: "replay", file });
    expect((await replay.chat(question(2))).content).toBe(two.content);
    expect((await replay.chat(question(1))).content).toBe(one.content);
    expect(readRecordings(file, { mustExist: true }).size).toBe(2);
  });

  it("adds to an existing recording set instead of replacing it", async () => {
    await recorder().chat(question(1));
    await recorder().chat(question(2));
    expect(readRecordings(file, { mustExist: true }).size).toBe(2);
  });
});

describe("replay", () => {
  it("never calls the network, even with a live client at hand", async () => {
    await recorder().chat(question(1));
    const before = double.requests.length;
    const replay = createRecordingClient({ mode: "replay", file, live: new OllamaClient({ host: double.host }) });
    await replay.chat(question(1));
    await expect(replay.chat(question(9))).rejects.toThrow(ModelError);
    expect(double.requests.length).toBe(before);
  });

  it("names the model, the start of the last message and the key of a call that was not recorded", async () => {
    await recorder().chat(question(1));
    const error = await createRecordingClient({ mode: "replay", file })
      .chat(question(7))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as ModelError).file).toBe(file);
    const key = recordingKey(chatKey(question(7)));
    expect((error as Error).message).toBe(
      `${file}: no recorded chat call for model gemma4:e2b with last message ` +
        `"Which database did we choose for the project, and why was it…" (key ${key}): ` +
        "record it against a running Ollama (record mode), or check that the request did not change",
    );
  });

  it("says when the recording set does not exist", async () => {
    await expect(createRecordingClient({ mode: "replay", file }).chat(question(1))).rejects.toThrow(
      `${file}: no such recording set`,
    );
  });

  it("refuses an entry whose request was edited without re-recording", async () => {
    await recorder().chat(question(1));
    writeFileSync(file, readFileSync(file, "utf8").replace('"seed": 1', '"seed": 5'));
    await expect(createRecordingClient({ mode: "replay", file }).chat(question(5))).rejects.toThrow(
      /does not match its request/,
    );
  });

  it("refuses a file that is not a recording set", async () => {
    await recorder().chat(question(1));
    writeFileSync(file, '{"version": 2, "entries": {}}');
    await expect(createRecordingClient({ mode: "replay", file }).chat(question(1))).rejects.toThrow(
      /not a valid recording set: at version/,
    );
  });

  it("lists the models its recordings came from", async () => {
    await recorder().chat(question(1));
    const models = await createRecordingClient({ mode: "replay", file }).listModels();
    expect(models).toEqual([{ name: "gemma4:e2b", digest: "sha256:double-gemma4-e2b" }]);
  });
});

describe("keys", () => {
  it("differ by seed, model, message, kind and options, and ignore key order", () => {
    const base = recordingKey(chatKey(question(1)));
    expect(recordingKey(chatKey(question(2)))).not.toBe(base);
    expect(recordingKey(chatKey({ ...question(1), model: "gemma4:e4b" }))).not.toBe(base);
    expect(recordingKey(chatKey({ ...question(1), options: { seed: 1, temperature: 0 } }))).not.toBe(base);
    expect(recordingKey(chatKey({ ...question(1), options: { temperature: 0.7, seed: 1 } }))).toBe(base);
    expect(recordingKey(embedKey({ model: "m", input: ["a"] }))).not.toBe(
      recordingKey(chatKey({ model: "m", messages: [{ role: "user", content: "a" }] })),
    );
  });

  it("are sha256 hex digests", () => {
    expect(recordingKey(chatKey(question(1)))).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("live mode", () => {
  it("passes calls through and records nothing", async () => {
    const live = createRecordingClient({ mode: "live", file, live: new OllamaClient({ host: double.host }) });
    await live.chat(question(1));
    expect(() => readRecordings(file, { mustExist: true })).toThrow(/no such recording set/);
  });
});
