/** The built-in body readers, one per declared body type, chosen at build time. */
import { Observable } from 'rxjs/internal/Observable';
import { httpProblem } from '../errors/http-problem';
import type { EntityInput } from './message-body';
import type { RequestContext } from '../context/request-context';
import { LOCAL_FILES, saveToLocalFile, type FileSettings } from './local-file-body';
import { isJsonText } from '../http/media-type';
import { isNodeReadableClass, needNodeBuiltins, nodeBuiltin } from '../runtime/node-builtins';
import { isNodeBufferClass } from '../runtime/bytes';

/** What a built-in reader gets: the body, the request (for clean-ups), its media type. */
export interface ReadRequest {
  readonly input: EntityInput;
  readonly ctx: RequestContext;
  readonly mediaType: string | undefined;
}

export interface BuiltinReader {
  /** Whether it reads bodies of this media type (`undefined`: no `Content-Type` sent). */
  accepts(mediaType: string | undefined): boolean;
  read(request: ReadRequest): Promise<unknown>;
}

function observe(stream: ReadableStream<Uint8Array>): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const reader = stream.getReader();
    let active = true;
    const pump = (): void => {
      reader.read().then(
        ({ done, value }) => {
          if (!active) return;
          if (done) subscriber.complete();
          else {
            subscriber.next(value);
            pump();
          }
        },
        (error: unknown) => subscriber.error(error),
      );
    };
    pump();
    return () => {
      active = false;
      void reader.cancel().catch(() => undefined);
    };
  });
}

/** A reader of bodies of any media type. */
function anyType(read: BuiltinReader['read']): BuiltinReader {
  return { accepts: () => true, read };
}

/** A reader of the body's bytes, as `convert` presents them. */
function bytesAs(convert: (bytes: Uint8Array) => unknown): BuiltinReader {
  return anyType(async ({ input }) => convert(await input.bytes()));
}

const rawReaders = new Map<Function, BuiltinReader>([
  [Uint8Array, anyType(({ input }) => input.bytes())],
  [ArrayBuffer, bytesAs((bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))],
  [ReadableStream, anyType(async ({ input }) => input.stream())],
  [Observable, anyType(async ({ input }) => observe(input.stream()))],
  [URLSearchParams, anyType(async ({ input }) => new URLSearchParams(await input.text()))],
]);

/** Readers of bodies taken as they are (bytes, buffers, streams, chunk Observables, forms); else `undefined`. */
export function rawBodyReader(type: unknown): BuiltinReader | undefined {
  if (isNodeReadableClass(type)) return nodeReadableReader;
  if (isNodeBufferClass(type)) return nodeBufferReader;
  return typeof type === 'function' ? rawReaders.get(type) : undefined;
}

// A Node `Buffer` parameter (a runtime without Buffer has no such class to declare).
const nodeBufferReader = bytesAs((bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

// A Node `Readable` parameter (only an application that has node:stream can declare one).
const nodeReadableReader = anyType(async ({ input }) =>
  nodeBuiltin('node:stream', 'a Readable body parameter').Readable.fromWeb(
    input.stream() as import('node:stream/web').ReadableStream<Uint8Array>,
  ),
);

/** The `LocalFile` reader: the body streamed to disk, deleted after the response unless configured otherwise. */
export function localFileReader(settings: FileSettings): BuiltinReader {
  needNodeBuiltins(LOCAL_FILES, 'node:fs', 'node:fs/promises', 'node:path', 'node:stream', 'node:stream/promises');
  return anyType(({ input, ctx, mediaType }) => saveToLocalFile(input.stream(), ctx, settings, mediaType));
}

/** `application/json` and every `+json` type are JSON; a body without `Content-Type` is taken as JSON too. */
export function isJsonMediaTypeText(mediaType: string | undefined): boolean {
  return mediaType === undefined || isJsonText(mediaType);
}

export function unsupported(mediaType: string | undefined, type: string): Error {
  return httpProblem(
    'RXREST_UNSUPPORTED_MEDIA_TYPE',
    `No reader reads ${type} from ${mediaType ?? 'a body without Content-Type'}`,
  );
}
