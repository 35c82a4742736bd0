/** Streams a multipart/form-data body through busboy: file parts straight to disk, small text parts in memory. */
import { loadPackage } from '../runtime/load-package';
import { nodeBuiltin } from '../runtime/node-builtins';
import type Busboy from 'busboy';
import type { Readable, Writable } from 'node:stream';
import { httpProblem } from '../errors/http-problem';
import type { PartHeaders } from './file-upload';
import { FormValue } from './multipart-form-data-input';
import type { MultipartSettings } from './multipart-settings';
import { PartHeaderScanner, ScanLimitError, scanningStream } from './part-header-scanner';
import type { UploadStore } from './upload-store';

const nodeStreamPromises = () => nodeBuiltin('node:stream/promises', 'multipart forms');

const NO_HEADERS: PartHeaders = Object.freeze(Object.create(null) as PartHeaders);

function tooLarge(detail: string): Error {
  return httpProblem('RXREST_PART_TOO_LARGE', detail);
}

function malformed(detail: string, cause?: unknown): Error {
  return httpProblem('RXREST_MALFORMED_MULTIPART', detail, { cause });
}

/** The charset parameter of a part's Content-Type, else UTF-8 (RFC 7578 §4.5 leaves the default to the form). */
function charsetOf(headers: PartHeaders): string {
  const match = /;\s*charset="?([^";\s]+)/i.exec(headers['content-type']?.[0] ?? '');
  return match ? match[1] : 'UTF-8';
}

/** Part headers in order; busboy emits parts in the same order (skipping those without form-data disposition). */
class HeaderQueue {
  readonly #queue: PartHeaders[] = [];
  push = (headers: PartHeaders): void => {
    if (/^\s*form-data/i.test(headers['content-disposition']?.[0] ?? '')) this.#queue.push(headers);
  };
  take(): PartHeaders {
    return this.#queue.shift() ?? NO_HEADERS;
  }
}

/**
 * Parses `source` (the request body) as `multipart/form-data`. Resolves with every part in the order sent once every file is
 * on disk; rejects with a 413 problem for a limit, a 400 problem for a malformed or truncated body. On
 * rejection every file already written is deleted before the promise settles.
 */
export async function parseMultipart(
  source: Readable | null,
  contentType: string,
  settings: MultipartSettings,
  store: UploadStore,
): Promise<FormValue[]> {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw malformed('The multipart/form-data request has no boundary parameter');
  if (!source) throw malformed('The multipart/form-data request has no body');
  await store.prepare();
  const fileLimit = Math.min(settings.maxBodySize, settings.maxFileSize ?? Infinity);
  let parser: Busboy.Busboy;
  try {
    // Loaded with the first multipart body: an application that takes none never loads the parser.
    parser = loadPackage<typeof import('busboy')>('busboy')({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        fieldSize: settings.maxFormAttributeSize + 1,
        fileSize: fileLimit,
        parts: settings.maxParts,
        fields: settings.maxFields,
        fieldNameSize: settings.maxHeaderSize,
      },
    });
  } catch (error) {
    throw malformed('The multipart/form-data request is malformed', error);
  }
  const headers = new HeaderQueue();
  const scanner = scanningStream(new PartHeaderScanner(boundary[1] ?? boundary[2], settings, headers.push));
  const entries: Promise<FormValue>[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    store.abort();
    source.destroy();
  };
  store.signal.addEventListener('abort', () => fail(malformed('The request was abandoned before its body was read')), {
    once: true,
  });
  parser.on('field', (name, value, info) => {
    const partHeaders = headers.take();
    if (info.valueTruncated || Buffer.byteLength(value) > settings.maxFormAttributeSize)
      return fail(
        tooLarge(
          `The part "${name}" is larger than ${settings.maxFormAttributeSize} bytes (framework.http.limits.max-form-attribute-size)`,
        ),
      );
    if (info.nameTruncated) return fail(tooLarge('A part name is too long'));
    entries.push(
      Promise.resolve(
        new FormValue(name, value, undefined, info.mimeType, charsetOf(partHeaders), undefined, partHeaders),
      ),
    );
  });
  parser.on('file', (name, stream, info) => {
    const partHeaders = headers.take();
    const file = store.create();
    if (!file) {
      stream.resume();
      return fail(malformed('The request was abandoned'));
    }
    stream.once('limit', () => fail(tooLarge(`The file part "${name}" is larger than ${fileLimit} bytes`)));
    const written = nodeStreamPromises()
      .pipeline(stream, file.stream)
      .then(() => {
        if (stream.truncated) throw tooLarge(`The file part "${name}" is larger than ${fileLimit} bytes`);
        const item = { size: file.stream.bytesWritten, path: file.path, isInMemory: false as const };
        return new FormValue(name, '', item, info.mimeType, charsetOf(partHeaders), info.filename, partHeaders);
      });
    // A limit is the reason to report; a write stopped because the body stopped is only a consequence.
    written.catch((error: unknown) => (error instanceof Error && 'status' in error ? fail(error) : source.destroy()));
    entries.push(written);
  });
  parser.on('partsLimit', () =>
    fail(tooLarge(`The request has more than ${settings.maxParts} parts (framework.http.limits.max-parts)`)),
  );
  parser.on('fieldsLimit', () =>
    fail(tooLarge(`The request has more than ${settings.maxFields} fields (framework.http.limits.max-fields)`)),
  );
  try {
    await nodeStreamPromises().pipeline(source, scanner, parser as unknown as Writable);
    const parts = await Promise.all(entries);
    if (failure) throw failure;
    return parts;
  } catch (error) {
    // Taken before discarding: discarding aborts the store, which would record "abandoned" as the reason.
    const reason = failure ?? translate(error);
    await Promise.allSettled(entries);
    await store.discard();
    throw reason;
  }
}

function translate(error: unknown): Error {
  if (error instanceof ScanLimitError)
    return error.limit === 'body' ? httpProblem('RXREST_BODY_TOO_LARGE', error.message) : tooLarge(error.message);
  if (error instanceof Error && 'status' in error) return error;
  return malformed(
    `The multipart/form-data body is malformed or truncated${error instanceof Error ? `: ${error.message}` : ''}`,
    error,
  );
}
