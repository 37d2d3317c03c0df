/** Token counts are whole-ish numbers; rates and ranks-based scores read best with three decimals. */
export function formatValue(metric: string, value: number): string {
  if (!Number.isFinite(value)) return "–";
  return metric === "tokens" ? value.toFixed(1) : value.toFixed(3);
}

export function formatSigned(metric: string, value: number): string {
  const text = formatValue(metric, value);
  return value > 0 ? `+${text}` : text;
}

export function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
