/** The natural order of converted parameter values, for sorted sets. */

interface Comparable {
  compareTo(other: unknown): number;
}

function isComparable(value: unknown): value is Comparable {
  return typeof (value as Comparable | null)?.compareTo === 'function';
}

/** Numbers, bigints and dates by value; objects by their `compareTo`; everything else by its string's code units. */
export function naturalOrder(a: unknown, b: unknown): number {
  if (isComparable(a)) return a.compareTo(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint'))
    return a < b ? -1 : a > b ? 1 : 0;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
