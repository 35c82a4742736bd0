/** A request's multipart form (parsed once, its files cleaned up at the end), and the `@RestForm` values in it. */
import { maybeNodeBuiltin, nodeBuiltin, type BuiltinName } from '../runtime/node-builtins';
import { runtimeName } from '../runtime/runtime-name';
import { httpProblem } from '../errors/http-problem';
import type { BodySettings } from './body-settings';
import type { RequestContext } from '../context/request-context';
import { FileUpload } from './file-upload';
import type { FormValue } from './multipart-form-data-input';
import type { MultipartSettings } from './multipart-settings';
import type { PartTarget } from './part-target';
import { compilePartEntityReader, type PartEntityReader } from './read-part-entity';
import { parseMultipart } from './parse-multipart';
import { UploadStore } from './upload-store';
import { bodySource } from '../body/body-source';
import { ContextKey } from '../context/context-key';

const nodeFsPromises = () => nodeBuiltin('node:fs/promises', 'multipart uploads to disk');

const PARSED = new ContextKey<Promise<FormValue[]>>('multipart');

/** What multipart forms need of Node (busboy's streams, files on disk), and the feature's name in build errors. */
export const MULTIPART_FEATURE = 'multipart forms (files, MultipartFormDataInput)';
export const MULTIPART_BUILTINS: readonly BuiltinName[] = ['node:stream', 'node:stream/promises', 'node:fs/promises'];

/** A multipart body sent to a text form parameter where multipart cannot be parsed (a Worker): 415, not a failure. */
function unparsable(): Error {
  return httpProblem(
    'RXREST_UNSUPPORTED_MEDIA_TYPE',
    `multipart/form-data cannot be read on ${runtimeName()}: send the form as application/x-www-form-urlencoded`,
  );
}

export function isMultipart(ctx: RequestContext): boolean {
  return /^\s*multipart\/form-data\s*(;|$)/i.test(ctx.headers.get('content-type') ?? '');
}

/** Parsed on first use; the files are deleted at the end when parsing failed or `deleteUploadedFilesOnEnd` says so. */
export function readMultipart(ctx: RequestContext, settings: MultipartSettings): Promise<FormValue[]> {
  const cached = ctx.get(PARSED);
  if (cached) return cached;
  if (maybeNodeBuiltin('node:stream') === undefined) return Promise.reject(unparsable());
  const store = new UploadStore(settings.uploadsDirectory, settings.uploads);
  const parsed = parseMultipart(bodySource(ctx), ctx.headers.get('content-type') ?? '', settings, store);
  parsed.catch(() => undefined);
  ctx.set(PARSED, parsed);
  ctx.onComplete(async () => {
    // A response sent before the body was read (an earlier argument failed) stops the upload.
    store.abort();
    const ok = await parsed.then(() => true).catch(() => false);
    if (!ok || settings.deleteUploadedFilesOnEnd) await store.discard();
    // Files the application keeps are its own from here: no longer uploads in progress.
    store.release();
  });
  return parsed;
}

export type PartReader = (ctx: RequestContext) => Promise<unknown>;

/** A text value may be sent as a file. */
function textOf(part: FormValue): Promise<string> {
  return part.fileItem ? nodeFsPromises().readFile(part.fileItem.path, 'utf8') : Promise.resolve(part.value);
}

/** The parts named `name`; `FileUpload.ALL` selects every file part. */
function select(parts: readonly FormValue[], name: string): FormValue[] {
  return name === FileUpload.ALL ? parts.filter((part) => part.isFileItem) : parts.filter((part) => part.name === name);
}

/** Text values of the parts named `name` (`undefined`: none); `null` when the request is not multipart. */
export function multipartTexts(
  ctx: RequestContext,
  settings: MultipartSettings,
  name: string,
): Promise<string[] | undefined> | null {
  if (!isMultipart(ctx)) return null;
  return readMultipart(ctx, settings).then((parts) => {
    const named = select(parts, name);
    return named.length ? Promise.all(named.map(textOf)) : undefined;
  });
}

async function readOne(
  ctx: RequestContext,
  part: FormValue,
  target: PartTarget,
  readEntity: PartEntityReader,
): Promise<unknown> {
  switch (target.kind) {
    case 'file':
      return part.toFileUpload();
    case 'path':
      return part.fileItem?.path;
    case 'handle': {
      // Only file parts reach a file, path or handle target (compilePartReader leaves the others out).
      const handle = await part.toFileUpload()!.open();
      ctx.onComplete(() => handle.close().catch(() => undefined));
      return handle;
    }
    default:
      return readEntity(ctx, part);
  }
}

export function compilePartReader(
  name: string,
  target: PartTarget,
  settings: MultipartSettings,
  bodySettings: BodySettings,
): PartReader {
  const readEntity = compilePartEntityReader(target, bodySettings);
  return async (ctx) => {
    const parts = select(await readMultipart(ctx, settings), name);
    // Files are wanted from file parts only: a text part of the same name is not a file.
    const fitting = target.kind === 'entity' ? parts : parts.filter((part) => part.isFileItem);
    if (target.list) {
      const values = await Promise.all(fitting.map((part) => readOne(ctx, part, target, readEntity)));
      return values.filter((value) => value !== undefined);
    }
    return fitting.length ? readOne(ctx, fitting[0], target, readEntity) : undefined;
  };
}
