// A tiny memo for parsers of header values: the same Accept or Accept-Encoding strings repeat on
// every request, so parsing each distinct string once pays off. Knows nothing of HTTP.

/**
 * Wraps a pure string parser with a cache of at most `limit` entries. When full the cache is
 * cleared rather than evicted entry by entry: cheaper, and a flood of distinct values (an
 * attacker's) then costs no more than not caching. Results are shared, so callers must treat
 * them as immutable (the parsers of this folder freeze them).
 *
 * @example const parse = memoize(500, (s) => s.split(',')); parse('a,b') === parse('a,b') // true
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
