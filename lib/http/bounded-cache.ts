// A memo for parsers of header values, which repeat on every request. Knows nothing of HTTP.

/**
 * At most `limit` entries, then cleared rather than evicted one by one: cheaper, and a flood of distinct values
 * costs no more than not caching. Results are shared: treat them as immutable.
 */
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
