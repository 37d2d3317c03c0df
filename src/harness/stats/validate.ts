/**
 * Argument checks shared by the statistics functions. A bad argument here is a bug in the
 * caller (the harness computes these inputs), so these throw RangeError, not RecollectError.
 */

export function assertFiniteValues(fn: string, name: string, values: readonly number[]): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      throw new RangeError(`${fn}: ${name}[${i}] must be a finite number, got ${values[i]}`);
    }
  }
}

export function assertPositiveInteger(fn: string, name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${fn}: ${name} must be a positive integer, got ${value}`);
  }
}

export function assertOpenUnit(fn: string, name: string, value: number): void {
  if (!(value > 0 && value < 1)) {
    throw new RangeError(`${fn}: ${name} must be strictly between 0 and 1, got ${value}`);
  }
}

export function assertUnitValues(fn: string, name: string, values: readonly number[]): void {
  for (let i = 0; i < values.length; i++) {
    if (!(values[i] >= 0 && values[i] <= 1)) {
      throw new RangeError(`${fn}: ${name}[${i}] must lie in [0, 1] for a bounded interval, got ${values[i]}`);
    }
  }
}
