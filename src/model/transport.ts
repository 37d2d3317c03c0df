/**
 * The fetch handed to the `ollama` package. The package has no timeout and skips NDJSON lines it
 * cannot parse (it only warns), so this wrapper adds both: every request carries the attempt's
 * abort signal, and a streamed body errors on the first line that is not JSON.
 */

/** A line of a streamed (NDJSON) body that is not JSON. */
export class MalformedLineError extends Error {
  constructor(readonly line: string) {
    super(`a streamed line is not JSON: ${excerpt(line)}`);
    this.name = "MalformedLineError";
  }
}

/** A streamed line longer than the reply cap allows (a model or server gone wrong). */
export class LineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`a streamed line passed ${maxBytes} bytes`);
    this.name = "LineTooLongError";
  }
}

/** A streamed body that ended halfway through a line. */
export class TruncatedStreamError extends Error {
  constructor() {
    super("the stream ended halfway through a line");
    this.name = "TruncatedStreamError";
  }
}

/** Room for the JSON around one streamed piece of a reply. */
const LINE_OVERHEAD_BYTES = 64 * 1024;

export function attemptFetch(signal: AbortSignal, maxReplyBytes: number): typeof fetch {
  return async (input, init) => {
    const signals = init?.signal ? [init.signal, signal] : [signal];
    const response = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
    const type = response.headers.get("content-type") ?? "";
    if (!response.body || !type.includes("ndjson")) return response;
    return new Response(response.body.pipeThrough(ndjsonGuard(maxReplyBytes + LINE_OVERHEAD_BYTES)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Passes bytes through unchanged, checking each complete line parses as JSON and none is longer than `maxLineBytes`. */
function ndjsonGuard(maxLineBytes: number): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let pending = "";
  const check = (line: string) => {
    if (line.trim() === "") return;
    if (line.length > maxLineBytes) throw new LineTooLongError(maxLineBytes);
    try {
      JSON.parse(line);
    } catch {
      throw new MalformedLineError(line);
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      lines.forEach(check);
      // Counted in characters, which never outnumber the bytes they were decoded from.
      if (pending.length > maxLineBytes) throw new LineTooLongError(maxLineBytes);
      controller.enqueue(chunk);
    },
    flush() {
      // A body that ends halfway through a line was cut off, not garbled.
      pending += decoder.decode();
      if (pending.trim() === "") return;
      try {
        JSON.parse(pending);
      } catch {
        throw new TruncatedStreamError();
      }
    },
  });
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
}
