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

function undecodable(name: string, charset: string): Error {
  return httpProblem(
    'RXREST_UNSUPPORTED_MEDIA_TYPE',
    `The part "${name}" is in charset ${charset}, which the server cannot read: send it in UTF-8`,
  );
}

/** The charset parameter of a part's Content-Type, else UTF-8 (RFC 7578 §4.5 leaves the default to the form). */
function charsetOf(headers: PartHeaders): string {
  const match = /;\s*charset="?([^";\s]+)/i.exec(headers['content-type']?.[0] ?? '');
  return match ? match[1] : 'UTF-8';
}

/**
 * busboy emits parts in the same order (skipping those without form-data disposition). It also skips, without a word,
 * a part it cannot read (a `filename*` in a charset it lacks, a delimiter followed by padding): the queue is then out
 * of step, and the body is refused rather than give one part's headers to the next.
 */
class HeaderQueue {
  readonly #queue: PartHeaders[] = [];
  #overtaken = false;
  push = (headers: PartHeaders): void => {
    if (/^\s*form-data/i.test(headers['content-disposition']?.[0] ?? '')) this.#queue.push(headers);
  };
  take(): PartHeaders {
    const headers = this.#queue.shift();
    if (!headers) this.#overtaken = true;
    return headers ?? NO_HEADERS;
  }
  /** Every part scanned was emitted, and no part emitted went unscanned. */
  get inStep(): boolean {
    return !this.#overtaken && this.#queue.length === 0;
  }
}

/** Loaded with the first multipart body: an application that takes none never loads it. */
function createParser(contentType: string, settings: MultipartSettings, fileLimit: number): Busboy.Busboy {
  try {
    return loadPackage<typeof import('busboy')>('busboy')({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        fieldSize: settings.maxFormAttributeSize + 1,
        fileSize: fileLimit,
        parts: settings.maxParts,
        fields: settings.maxFields,
        // As large as a part's header block, which the header scanner bounds first: busboy never truncates a name.
        fieldNameSize: settings.maxHeaderSize,
      },
    });
  } catch (error) {
    throw malformed('The multipart/form-data request is malformed', error);
  }
}

/** Files one body writes at once: a thousand empty file parts, 70 KB sent, held a thousand descriptors open at once. */
const FILES_AT_ONCE = 4;

/** The parts of one body, each a promise of its value, and the first failure, which stops the body and every write. */
class FormParts {
  readonly entries: Promise<FormValue>[] = [];
  readonly headers = new HeaderQueue();
  failure: Error | undefined;
  #writing = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly source: Readable,
    readonly settings: MultipartSettings,
    readonly store: UploadStore,
    readonly fileLimit: number,
  ) {}

  fail = (error: Error): void => {
    this.failure ??= error;
    this.store.abort();
    this.source.destroy();
  };

  listen(parser: Busboy.Busboy): void {
    const { maxParts, maxFields } = this.settings;
    const abandoned = () => this.fail(malformed('The request was abandoned before its body was read'));
    this.store.signal.addEventListener('abort', abandoned, { once: true });
    parser.on('field', this.#field);
    parser.on('file', this.#file);
    parser.on('partsLimit', () =>
      this.fail(tooLarge(`The request has more than ${maxParts} parts (framework.http.limits.max-parts)`)),
    );
    parser.on('fieldsLimit', () =>
      this.fail(tooLarge(`The request has more than ${maxFields} fields (framework.http.limits.max-fields)`)),
    );
  }

  /** `value` is `undefined` when busboy cannot decode the part's charset. */
  #field = (name: string, value: string | undefined, info: Busboy.FieldInfo): void => {
    const partHeaders = this.headers.take();
    const { maxFormAttributeSize } = this.settings;
    if (value === undefined) return this.fail(undecodable(name, charsetOf(partHeaders)));
    if (info.valueTruncated || Buffer.byteLength(value) > maxFormAttributeSize) {
      const limit = `${maxFormAttributeSize} bytes (framework.http.limits.max-form-attribute-size)`;
      return this.fail(tooLarge(`The part "${name}" is larger than ${limit}`));
    }
    const part = new FormValue(name, value, undefined, info.mimeType, charsetOf(partHeaders), undefined, partHeaders);
    this.entries.push(Promise.resolve(part));
  };

  #file = (name: string, stream: Readable & { truncated?: boolean }, info: Busboy.FileInfo): void => {
    const partHeaders = this.headers.take();
    const tooLong = () => tooLarge(`The file part "${name}" is larger than ${this.fileLimit} bytes`);
    stream.once('limit', () => this.fail(tooLong()));
    // Until its turn comes nothing reads the part: an error the parser ends it with when the body fails is the body's,
    // reported there (unread, it would end the process).
    stream.on('error', () => undefined);
    const written = this.#inTurn(() => this.#write(stream)).then(({ size, path }) => {
      if (stream.truncated) throw tooLong();
      const item = { size, path, isInMemory: false as const };
      return new FormValue(name, '', item, info.mimeType, charsetOf(partHeaders), info.filename, partHeaders);
    });
    // A limit is the reason to report; a write stopped because the body stopped is only a consequence.
    written.catch((error: unknown) => {
      if (error instanceof Error && 'status' in error) return this.fail(error);
      // The disk refused the file (full, not writable): the server's failure, not a malformed body of the client's.
      // Read by its `syscall`, not `instanceof`: Node's own errors may come from another realm (a test's sandbox).
      if (typeof (error as { syscall?: unknown } | null)?.syscall === 'string')
        return this.fail(new Error('An upload could not be written', { cause: error }));
      this.source.destroy();
    });
    this.entries.push(written);
  };

  /** One part's bytes to a file of the store, counted against the upload budget. */
  async #write(stream: Readable): Promise<{ size: number; path: string }> {
    const file = this.failure ? undefined : this.store.create();
    if (!file) {
      stream.resume();
      throw this.failure ?? malformed('The request was abandoned');
    }
    // Counted as busboy hands the bytes over, before they reach the disk: the budget is never passed, even briefly.
    stream.on('data', (chunk: Buffer) => {
      if (!this.store.hold(chunk.length)) this.fail(this.settings.uploads.refusal());
    });
    await nodeStreamPromises().pipeline(stream, file.stream);
    return { size: file.stream.bytesWritten, path: file.path };
  }

  /**
   * Runs `write` once fewer than {@link FILES_AT_ONCE} files of this body are open: a part waiting keeps its bytes in
   * busboy's stream, whose backpressure stops the body when they grow.
   */
  #inTurn<T>(write: () => Promise<T>): Promise<T> {
    let turn = Promise.resolve();
    if (this.#writing < FILES_AT_ONCE) this.#writing++;
    else turn = new Promise<void>((go) => this.#waiting.push(go));
    // A write done hands its place to the next one waiting, else gives it back.
    return turn.then(write).finally(() => {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#writing--;
    });
  }
}

/**
 * Every part in the order sent, once every file is on disk; a 413 for a limit, a 400 for a malformed body (every file
 * written deleted first).
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
  // Refused before a byte is read when the others hold everything: nothing of this body would fit.
  if (settings.uploads.full) throw settings.uploads.refusal();
  await store.prepare();
  const parts = new FormParts(
    source,
    settings,
    store,
    Math.min(settings.maxBodySize, settings.maxFileSize ?? Infinity),
  );
  const parser = createParser(contentType, settings, parts.fileLimit);
  const scanner = scanningStream(new PartHeaderScanner(boundary[1] ?? boundary[2], settings, parts.headers.push));
  parts.listen(parser);
  try {
    await nodeStreamPromises().pipeline(source, scanner, parser as unknown as Writable);
    const values = await Promise.all(parts.entries);
    if (parts.failure) throw parts.failure;
    if (!parts.headers.inStep) throw malformed('The multipart/form-data body has a part that cannot be read');
    return values;
  } catch (error) {
    // Taken before discarding: discarding aborts the store, which would record "abandoned" as the reason.
    const reason = parts.failure ?? translate(error);
    await Promise.allSettled(parts.entries);
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
