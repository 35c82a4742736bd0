// Byte ranges (RFC 9110 §14): a single-range `Range` and `Content-Range`. Multi-range requests are answered 200.

import { splitHeaderList } from './header-tokens';

/** Inclusive. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

// The range unit is case-insensitive (RFC 9110 §14.1).
const BYTES_UNIT = /^[ \t]*bytes=/i;
// int-range `first-[last]` or suffix-range `-length` (RFC 9110 §14.1.2).
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/** Undefined when not one satisfiable range: the whole body is then answered 200 (RFC 9110 §14.2). */
export function parseRange(header: string | null | undefined, size: number): ByteRange | undefined {
  if (header === null || header === undefined || size <= 0 || !BYTES_UNIT.test(header)) return undefined;
  // range-set is a list, so empty members (`bytes=0-9,`) are allowed (RFC 9110 §5.6.1).
  const specs = splitHeaderList(header.slice(header.indexOf('=') + 1));
  const match = specs.length === 1 ? RANGE_SPEC.exec(specs[0]) : null;
  if (match === null) return undefined;
  const [, first, last, suffix] = match;
  if (suffix !== undefined) {
    const length = Number(suffix);
    return length === 0 ? undefined : { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  // last < first makes the range invalid (§14.1.1); first >= size makes it unsatisfiable (§14.1.2).
  if (start >= size || (last !== '' && Number(last) < start)) return undefined;
  return { start, end };
}

/** RFC 9110 §14.4; throws a RangeError unless `0 <= start <= end < size`. */
export function formatContentRange(start: number, end: number, size: number): string {
  const valid = [start, end, size].every(Number.isSafeInteger) && start >= 0 && start <= end && end < size;
  if (!valid) throw new RangeError(`Invalid byte range ${start}-${end} of ${size} bytes`);
  return `bytes ${start}-${end}/${size}`;
}
