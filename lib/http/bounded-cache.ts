// A memo for parsers of header values, which repeat on every request. Knows nothing of HTTP.

/** Cleared when full (a flood of distinct values costs no more than no cache); results are shared: never mutated. */
export function memoize<T>(limit: number, parse: (text: string) => T): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined || cache.has(text)) return hit as T;
    const value = parse(text);
    if (cache.size >= limit) cache.clear();
    cache.set(text, value);
    return value;
  };
}
