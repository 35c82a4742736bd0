// A raw request path in the form routes match (matrix parameters split off, escapes normalised); knows no routes.
import { decodeComponent, normalizeEscapes } from './percent-encoding';

export interface RequestPath {
  /** Escapes decoded but `%2F` and `%25`; dot segments are the URL parser's (`%2e` too); `//` kept, as in Quarkus. */
  readonly path: string;
  /** Of all segments, decoded; a repeated name collects its values in order; `;flag` gives `''`. */
  readonly matrix: ReadonlyMap<string, readonly string[]>;
}

const NO_MATRIX: ReadonlyMap<string, readonly string[]> = new Map();

/** `undefined` when an escape is malformed or not UTF-8, so that the caller can answer 400. */
export function parseRequestPath(rawPath: string): RequestPath | undefined {
  if (rawPath.indexOf(';') !== -1) return splitMatrix(rawPath);
  const path = normalizeEscapes(rawPath);
  return path === undefined ? undefined : { path: path === '' ? '/' : path, matrix: NO_MATRIX };
}

/** Most paths have nothing to decode or split: no object made; `undefined` for the others. */
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

/** Split before decoding, so that an encoded `%3B` or `%3D` stays data. */
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
