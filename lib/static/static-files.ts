/** Serves the files of the static directory (`framework.http.static.directory`) for GET and HEAD (OPTIONS: Allow; else 405). */
import { nodeBuiltin } from '../runtime/node-builtins';
import { fileResponse, mediaTypeOf } from '../files/settle-file';
import { EntityTag } from '../http/entity-tag';
import { formatHttpDate } from '../http/http-date';
import { evaluatePreconditions, ifRangeMatches } from '../http/preconditions';
import { ResponseContext } from '../context/response-context';
import { httpProblem } from '../errors/http-problem';
import { attempt } from '../config/setting-types';

/** The feature's name in the errors of a runtime without a disk. */
export const STATIC_FILES = 'static files (framework.http.static.directory)';

const nodeFsPromises = () => nodeBuiltin('node:fs/promises', STATIC_FILES);
const nodePath = () => nodeBuiltin('node:path', STATIC_FILES);

/** Decoded; undefined when one could reach outside the directory, or names a dotfile not to be served. */
function safeSegments(rawPath: string, dotfiles: boolean): string[] | undefined {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    const segment = attempt(() => decodeURIComponent(raw));
    // After decoding, `..`, `.`, separators (also `%2f`, `%5c`) and NUL can only be attempts to escape.
    if (segment === undefined || segment === '..' || segment === '.' || /[\\/\0]/.test(segment)) return undefined;
    if (segment === '') continue;
    // `/.well-known/` (RFC 8615) is published on purpose (security.txt, ACME challenges).
    const wellKnown = segments.length === 0 && segment === '.well-known';
    if (!dotfiles && segment.startsWith('.') && !wellKnown) return undefined;
    segments.push(segment);
  }
  return segments;
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** Another method on a path served for reading only (RFC 9110 §9.3.7, §15.5.6): OPTIONS 200 with `Allow`, else 405. */
export function readOnly(method: string, path: string): ResponseContext {
  if (method !== 'OPTIONS') {
    throw httpProblem('RXREST_METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, { allowed: READ_METHODS });
  }
  const response = new ResponseContext(200);
  response.headers.set('allow', READ_METHODS.join(', '));
  return response;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(nodePath().sep) ? root : root + nodePath().sep);
}

/** Nothing outside the directory is served: `..` in any encoding is refused, links followed only when inside. */
export class StaticFiles {
  readonly root: string;
  readonly #dotfiles: boolean;
  #realRoot: string | undefined;

  /** Without `dotfiles`, a path with a segment starting with a dot (`.env`) is absent (404), as in serve-static. */
  constructor(directory: string, dotfiles = false) {
    this.root = nodePath().resolve(directory);
    this.#dotfiles = dotfiles;
  }

  /** Undefined when there is no such file (the caller answers 404). */
  async respond(method: string, rawPath: string, headers: Headers): Promise<ResponseContext | undefined> {
    const segments = safeSegments(rawPath, this.#dotfiles);
    if (!segments) return undefined;
    // `/page.html/` names a directory: a file there is absent (404), as in serve-static and nginx; served, its relative
    // links would resolve below it.
    const found = await this.#find(nodePath().join(this.root, ...segments), rawPath.endsWith('/'));
    if (!found) return undefined;
    if (method !== 'GET' && method !== 'HEAD') return readOnly(method, rawPath);
    const { path, size, mtime } = found;
    const etag = new EntityTag(`${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}`);
    const current = { etag, lastModified: mtime };
    const mediaType = mediaTypeOf(path);
    const failure = evaluatePreconditions({ method, headers }, current);
    if (failure) {
      // The media type is not written on a 304, but tells the compression step which Vary the 200 would carry.
      const response = new ResponseContext(failure.status, undefined, undefined, mediaType);
      for (const [name, value] of Object.entries(failure.headers)) response.headers.set(name, value);
      return response;
    }
    const range = ifRangeMatches(headers.get('if-range'), current) ? headers.get('range') : null;
    const response = await fileResponse(path, range, mediaType);
    response.headers.set('etag', etag.toString());
    response.headers.set('last-modified', formatHttpDate(mtime));
    return response;
  }

  async #find(candidate: string, directory: boolean): Promise<{ path: string; size: number; mtime: Date } | undefined> {
    try {
      let path = await nodeFsPromises().realpath(candidate);
      if (!(await this.#isInside(path))) return undefined;
      let info = await nodeFsPromises().stat(path);
      if (directory && !info.isDirectory()) return undefined;
      if (info.isDirectory()) {
        // The index page may itself be a symbolic link, so its real path is checked like any file's.
        path = await nodeFsPromises().realpath(nodePath().join(path, 'index.html'));
        if (!(await this.#isInside(path))) return undefined;
        info = await nodeFsPromises().stat(path);
      }
      return info.isFile() ? { path, size: info.size, mtime: info.mtime } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Against the directory's real path, read again when a path falls outside the one known: the directory may have
   * been made after the first request, or be a symbolic link a deployment switched to another release.
   */
  async #isInside(path: string): Promise<boolean> {
    if (this.#realRoot !== undefined && isInside(this.#realRoot, path)) return true;
    this.#realRoot = await nodeFsPromises().realpath(this.root);
    return isInside(this.#realRoot, path);
  }
}
