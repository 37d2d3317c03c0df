/** The inline data of a chart spec whose data sits at its top level, as the tests read it. */
export function specValues(spec: unknown): Record<string, unknown>[] {
  return (spec as { data: { values: Record<string, unknown>[] } }).data.values;
}
