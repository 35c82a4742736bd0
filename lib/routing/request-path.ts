// Turns a raw request path into the form routes match (matrix parameters split off, escapes normalised); knows nothing of routes.
import { decodeComponent, normalizeEscapes } from './percent-encoding';

/** A request path ready for {@link Router.match}, and the matrix parameters found on its segments. */
export interface RequestPath {
  /**
   * Matrix parameters removed from every segment; percent-escapes decoded except `%2F` and `%25`, which stay
   * (upper-cased) so that a slash inside a segment never becomes a separator. Empty segments (`//`) and dot
   * segments are kept as they are: the WHATWG URL parser has already resolved `.`/`..` (also `%2e`), and,
   * as in Quarkus, `//` is not collapsed.
   */
  readonly path: string;
  /** Matrix parameters of all segments, decoded; a repeated name collects its values in order; `;flag` gives `''`. */
  readonly matrix: ReadonlyMap<string, readonly string[]>;
}

/** Shared by every path without matrix parameters: typed read-only, never written. */
const NO_MATRIX: ReadonlyMap<string, readonly string[]> = new Map();

/**
 * Parses the path of a request URL (no query string). Returns `undefined` when a percent-escape is malformed
 * (`%zz`, truncated `%4`) or not UTF-8 (`%E0%A4`), so that the caller can answer 400.
 * A path without `%` or `;` costs one small object.
 *
 * @example
 * parseRequestPath('/cheeses;variant=goat/tomme');
 * // { path: '/cheeses/tomme', matrix: Map { 'variant' => ['goat'] } }
 * parseRequestPath('/files/a%2Fb%20c'); // { path: '/files/a%2Fb c', matrix: Map {} }
 */
export function parseRequestPath(rawPath: string): RequestPath | undefined {
  if (rawPath.indexOf(';') !== -1) return splitMatrix(rawPath);
  const plain = plainRequestPath(rawPath);
  if (plain !== undefined) return { path: plain, matrix: NO_MATRIX };
  const path = normalizeEscapes(rawPath);
  return path === undefined ? undefined : { path, matrix: NO_MATRIX };
}

/**
 * The routable form of a raw path that has nothing to decode or split (no `%`, no `;`: most requests), with no object
 * made for it; `undefined` for any other path, which {@link parseRequestPath} takes.
 */
export function plainRequestPath(rawPath: string): string | undefined {
  if (rawPath.indexOf(';') !== -1 || rawPath.indexOf('%') !== -1) return undefined;
  return rawPath === '' ? '/' : rawPath;
}

function splitMatrix(rawPath: string): RequestPath | undefined {
  const segments = rawPath.split('/');
  const matrix = new Map<string, string[]>();
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const semicolon = segment.indexOf(';');
    if (semicolon === -1) continue;
    segments[i] = segment.slice(0, semicolon);
    if (!addMatrixParameters(segment.slice(semicolon + 1), matrix)) return undefined;
  }
  const path = normalizeEscapes(segments.join('/'));
  if (path === undefined) return undefined;
  return { path: path === '' ? '/' : path, matrix };
}

/** `name=value` pairs separated by `;`; split before decoding so that an encoded `%3B` or `%3D` stays data. */
function addMatrixParameters(text: string, matrix: Map<string, string[]>): boolean {
  for (const pair of text.split(';')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodeComponent(pair.slice(equals + 1));
    if (name === undefined || value === undefined) return false;
    if (name === '') continue;
    const values = matrix.get(name);
    if (values === undefined) matrix.set(name, [value]);
    else values.push(value);
  }
  return true;
}
