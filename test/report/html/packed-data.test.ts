import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packJson } from "../../../src/report/html/packed-data.js";

const unpack = (packed: string) => JSON.parse(inflateSync(Buffer.from(packed, "base64")).toString("utf8"));

describe("packJson", () => {
  const value = {
    query: 'What did I say about <b>tea</b> & "coffee"? </script><!-- \u2028 ☕',
    rows: Array.from({ length: 2_000 }, (_, i) => [0, [i % 7, null], 0, i % 2, ["D1:3"]]),
  };

  it("gives back exactly the value, as zlib data the browser's DecompressionStream(\"deflate\") reads", () => {
    expect(unpack(packJson(value))).toEqual(value);
  });

  it("is plain base64, so nothing in the data can end the <script> element that holds it", () => {
    expect(packJson(value)).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it("is the same bytes on every run", () => {
    expect(packJson(value)).toBe(packJson(structuredClone(value)));
  });

  it("shrinks the repetitive rows of a benchmark to a fraction of their JSON", () => {
    expect(packJson(value).length).toBeLessThan(JSON.stringify(value).length / 5);
  });
});
