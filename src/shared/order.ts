/**
 * Orders strings by UTF-16 code unit. Unlike localeCompare it does not depend on the machine's
 * locale, so sorted output (and every hash of it) is the same everywhere.
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
