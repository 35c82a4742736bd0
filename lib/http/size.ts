// Memory sizes in configuration (`10M`, `2048`), binary multiples. Knows nothing of which limit they configure.

const SIZE = /^([0-9]+)([KkMmGgTtPpEeZzYy]?)$/;
const UNITS = 'KMGTPEZY';

/**
 * Parses a size: digits alone are bytes, a suffix (any case) multiplies by a power of 1024, `K` to `Y`. From 8P up,
 * Infinity (no limit) rather than an imprecise number. Throws a RangeError for anything else (`10MB`, `1.5K`).
 *
 * @example parseSize('10M') // 10485760
 */
export function parseSize(text: string): number {
  const match = SIZE.exec(text);
  if (match === null) {
    throw new RangeError(
      `Invalid size ${JSON.stringify(text)}: expected digits with an optional K, M, G, T, P, E, Z or Y suffix, e.g. 10M`,
    );
  }
  const exponent = match[2] === '' ? 0 : UNITS.indexOf(match[2].toUpperCase()) + 1;
  const bytes = Number(match[1]) * 1024 ** exponent;
  return bytes > Number.MAX_SAFE_INTEGER ? Infinity : bytes;
}

/** {@link parseSize}'s format, with the largest suffix that keeps it whole. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'unlimited';
  let exponent = 0;
  while (exponent < UNITS.length && bytes !== 0 && bytes % 1024 ** (exponent + 1) === 0) exponent++;
  return exponent === 0 ? String(bytes) : `${bytes / 1024 ** exponent}${UNITS[exponent - 1]}`;
}
