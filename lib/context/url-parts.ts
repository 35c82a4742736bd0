/** The raw path and query of a request URL, as sent, each read with a few `indexOf`s and one `slice` (no array). */

/** Where the path of an absolute URL begins (-1 when it has none), for {@link urlPath} and {@link urlQuery}. */
export function urlPathStart(url: string): number {
  return url.indexOf('/', url.indexOf('://') + 3);
}

/** The path of an absolute URL from `start`; a fragment belongs to neither path nor query. */
export function urlPath(url: string, start: number): string {
  if (start < 0) return '/';
  let end = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** The query of an absolute URL whose path begins at `start`, without `?`. */
export function urlQuery(url: string, start: number): string {
  if (start < 0) return '';
  const query = url.indexOf('?', start);
  if (query < 0) return '';
  const hash = url.indexOf('#', start);
  if (hash >= 0 && hash < query) return '';
  return hash > query ? url.slice(query + 1, hash) : url.slice(query + 1);
}

/** The path of an origin-form target (`/path?query`, which the request line never carries a fragment in). */
export function targetPath(target: string): string {
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}

/** The query of an origin-form target, without `?`. */
export function targetQuery(target: string): string {
  const query = target.indexOf('?');
  return query < 0 ? '' : target.slice(query + 1);
}
