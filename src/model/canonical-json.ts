/**
 * Two stable JSON forms: a compact one for hashing (recording keys) and a pretty one for files
 * people review in diffs. Both sort object keys and drop undefined values, so the same data
 * always gives the same bytes.
 */

/** Compact, sorted-key JSON: equal data gives an equal string, whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * Two-space indented, sorted-key JSON ending in a newline. Arrays of plain numbers (embedding
 * vectors) stay on one line, so a recording file stays readable and its diffs small.
 */
export function prettyJson(value: unknown): string {
  return `${pretty(sortKeys(value), "")}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Float32Array || value instanceof Float64Array) return Array.from(value);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

function pretty(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((v) => typeof v === "number")) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + pretty(v, inner)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`);
    return `{\n${lines.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value) ?? "null";
}
