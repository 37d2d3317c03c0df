import { describe, expect, it } from "vitest";
import { ModelError } from "../../src/model/errors.js";
import { CLIENT_DEFAULTS, DEFAULT_HOST, formatHost, normaliseClientOptions, resolveHost } from "../../src/model/options.js";

describe("resolveHost", () => {
  it("takes the configured host first, then OLLAMA_HOST, then the default", () => {
    expect(resolveHost("http://gpu-box:1234", { OLLAMA_HOST: "127.0.0.1:9" })).toBe("http://gpu-box:1234");
    expect(resolveHost(undefined, { OLLAMA_HOST: "127.0.0.1:9" })).toBe("http://127.0.0.1:9");
    expect(resolveHost(undefined, {})).toBe(DEFAULT_HOST);
    expect(DEFAULT_HOST).toBe("http://127.0.0.1:11434");
  });

  it("treats empty values as unset", () => {
    expect(resolveHost("  ", { OLLAMA_HOST: "" })).toBe(DEFAULT_HOST);
  });
});

describe("formatHost", () => {
  it.each([
    ["127.0.0.1", "http://127.0.0.1:11434"],
    ["localhost:8080", "http://localhost:8080"],
    [":9", "http://127.0.0.1:9"],
    ["http://example.org", "http://example.org:80"],
    ["https://example.org/", "https://example.org:443"],
    ["http://127.0.0.1:11434/", "http://127.0.0.1:11434"],
    ["https://proxy.example.org:8443/ollama/", "https://proxy.example.org:8443/ollama"],
  ])("reads %j as %j", (value, expected) => {
    expect(formatHost(value, "OLLAMA_HOST")).toBe(expected);
  });

  it("refuses what is not an http host, naming where it came from", () => {
    expect(() => formatHost("ftp://x", "OLLAMA_HOST")).toThrow(ModelError);
    expect(() => formatHost("http://", "OLLAMA_HOST")).toThrow(
      'OLLAMA_HOST is "http://", which is not a host: use a form such as http://127.0.0.1:11434',
    );
  });
});

describe("normaliseClientOptions", () => {
  it("fills defaults and reads OLLAMA_HOST from the given environment", () => {
    const options = normaliseClientOptions({ env: { OLLAMA_HOST: "0.0.0.0" } });
    expect(options).toMatchObject({ host: "http://0.0.0.0:11434", ...CLIENT_DEFAULTS });
  });

  it("rejects nonsense numbers", () => {
    expect(() => normaliseClientOptions({ env: {}, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => normaliseClientOptions({ env: {}, retries: 1.5 })).toThrow(/retries/);
  });
});
