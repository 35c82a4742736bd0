/** The invoke step's file branch: `LocalFile`, `FilePart` and `FileHandle` results become file responses. */
import { loadPackage } from '../runtime/load-package';
import { nodeBuiltin } from '../runtime/node-builtins';
import type { FileHandle } from 'node:fs/promises';
import { formatContentRange, parseRange } from '../http/range';
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { FileBody } from './file-body';
import { LocalFile } from '../body/local-file-body';
import { FILE_RESULTS, FilePart } from './file-results';
import { needDiskForResultOf } from './node-only-files';
import { locate } from '../errors/definition-error';
import { DirectBody } from '../streaming/direct-body';
import { trackStarted } from '../streaming/started-bodies';

const nodeFsPromises = () => nodeBuiltin('node:fs/promises', FILE_RESULTS);

const OCTET_STREAM = 'application/octet-stream';

let lookup: typeof import('mime-types').lookup | undefined;

/** `Content-Type` by extension (mime-types: megabytes loaded with the first file served, not before). */
export function mediaTypeOf(path: string): string {
  lookup ??= loadPackage<typeof import('mime-types')>('mime-types').lookup;
  return lookup(path) || OCTET_STREAM;
}

function isFileHandle(value: unknown): value is FileHandle {
  const handle = value as Partial<FileHandle> | null;
  if (typeof handle !== 'object' || typeof handle?.fd !== 'number') return false;
  return typeof handle.createReadStream === 'function' && typeof handle.stat === 'function';
}

export function isFileResult(value: unknown): value is LocalFile | FilePart | FileHandle {
  return value instanceof LocalFile || value instanceof FilePart || isFileHandle(value);
}

/** A whole file: 206 for one satisfiable `Range`; several or unsatisfiable ranges get it all (RFC 9110 §14.2). */
export async function fileResponse(
  path: string,
  rangeHeader: string | null,
  mediaType = mediaTypeOf(path),
): Promise<ResponseContext> {
  const { size } = await nodeFsPromises().stat(path);
  const range = parseRange(rangeHeader, size);
  const length = range ? range.end - range.start + 1 : size;
  const response = new ResponseContext(range ? 206 : 200, new FileBody({ path }, mediaType, range, length));
  response.headers.set('accept-ranges', 'bytes');
  if (range) response.headers.set('content-range', formatContentRange(range.start, range.end, size));
  return response;
}

async function responseFor(
  result: LocalFile | FilePart | FileHandle,
  rangeHeader: string | null,
  where: string | undefined,
): Promise<ResponseContext> {
  // Without decorator metadata the build could not see the method return a file: the log names it.
  needDiskForResultOf(where);
  if (result instanceof LocalFile)
    return fileResponse(result.path, rangeHeader, result.contentType ?? mediaTypeOf(result.path));
  if (result instanceof FilePart) {
    const { path, offset, length } = result;
    const mediaType = mediaTypeOf(path);
    if (length === 0) return new ResponseContext(200, '', undefined, mediaType);
    const range = { start: offset, end: offset + length - 1 };
    return new ResponseContext(200, new FileBody({ path }, mediaType, range, length));
  }
  // An open handle (Quarkus REST's `AsyncFile`): its size may change as it is read, so no Content-Length.
  return new ResponseContext(200, new FileBody({ handle: result }, OCTET_STREAM, undefined, undefined));
}

/** Sets a file result's response once the file is stat-ed (a missing file fails before anything is committed). */
export function settleFile(ctx: RequestContext, result: unknown): Promise<RequestContext> | undefined {
  if (!isFileResult(result)) return undefined;
  // A file result sends no validator, so an If-Range cannot name it: the whole file goes (RFC 9110 §13.1.5).
  const range = ctx.headers.has('if-range') ? null : ctx.headers.get('range');
  const endpoint = ctx.endpoint;
  const where = endpoint && locate(endpoint.resourceClass, endpoint.methodName);
  return responseFor(result, range, where).then((response) => {
    if (response.entity instanceof DirectBody) trackStarted(ctx, response.entity);
    ctx.response = response;
    return ctx;
  });
}
