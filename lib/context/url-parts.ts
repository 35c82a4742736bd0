/** The raw path and query of a request URL, as sent (still percent-encoded, matrix parameters kept). */

/** `[path, query]` of an absolute URL; the fragment, if any, belongs to neither. */
export function splitUrl(url: string): [path: string, query: string] {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start < 0) return ['/', ''];
  let end = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  const path = end < 0 ? url.slice(start) : url.slice(start, end);
  if (end < 0 || url[end] === '#') return [path, ''];
  return [path, hash > end ? url.slice(end + 1, hash) : url.slice(end + 1)];
}

/** `[path, query]` of an origin-form target (`/path?query`, which the request line never carries a fragment in). */
export function splitTarget(target: string): [path: string, query: string] {
  const query = target.indexOf('?');
  return query < 0 ? [target, ''] : [target.slice(0, query), target.slice(query + 1)];
}
