/** Serializes response entities: bytes and streams as they are, strings as text, everything else as JSON. */
import type { JsonMapper } from '../json/json-mapper';
import type { ResponseHeaders } from '../response/response-headers';
import { memoize } from '../http/bounded-cache';
import { isJsonItemType } from '../http/streaming-types';
import { jsonItem } from '../streaming/framing';
import { isJsonText } from '../http/media-type';

/** The body of a Web `Response`, or a whole `Response` made by a server writer. */
export type WrittenBody = string | Uint8Array | ReadableStream<Uint8Array> | Response | null;

/** The response an entity is written into: writers may add headers. */
export interface WriteTarget {
  readonly status: number;
  readonly headers: ResponseHeaders;
}

/** Writes entities of some types as some media types; the first that accepts an entity writes it. */
export interface EntityWriter {
  isWriteable(entity: unknown, mediaType: string): boolean;
  write(entity: unknown, mediaType: string, target: WriteTarget): WrittenBody | Promise<WrittenBody>;
}

// The same few media type strings recur on every response: classify each once.
const isJsonType = memoize(500, isJsonText);

/** Bytes, `ArrayBuffer`s and Web streams go out as they are, whatever the media type. */
export const bytesWriter: EntityWriter = {
  isWriteable: (entity) =>
    entity instanceof Uint8Array || entity instanceof ArrayBuffer || entity instanceof ReadableStream,
  write: (entity) =>
    entity instanceof ArrayBuffer ? new Uint8Array(entity) : (entity as Uint8Array | ReadableStream<Uint8Array>),
};

/** The built-in writers, JSON written by `mapper` (dates as ISO-8601 strings by default). */
export function createBuiltinWriters(mapper: JsonMapper): EntityWriter[] {
  const json = (entity: unknown) => mapper.writeValueAsString(entity);
  return [
    bytesWriter,
    // A string is written as it is, also under a JSON media type (it is taken to be JSON text already).
    { isWriteable: (entity) => typeof entity === 'string', write: (entity) => entity as string },
    { isWriteable: (_entity, mediaType) => isJsonType(mediaType), write: json },
    // One value under an NDJSON or JSON-seq type is a body of one item (a streaming endpoint's Promise, a mapper's).
    {
      isWriteable: (_entity, mediaType) => isJsonItemType(mediaType),
      write: (entity, mediaType) => jsonItem(json(entity), mediaType),
    },
    // Under a text type a scalar by its string form, an object as JSON text (a mapper's), never `[object Object]`.
    {
      isWriteable: (_entity, mediaType) => mediaType.toLowerCase().startsWith('text/'),
      write: (entity) =>
        typeof entity === 'object' && entity !== null && !(entity instanceof Date) ? json(entity) : String(entity),
    },
  ];
}

/** The media type of an entity when neither the endpoint nor the response gave one. */
export function defaultMediaType(entity: unknown): string {
  if (typeof entity === 'string') return 'text/plain';
  return bytesWriter.isWriteable(entity, '') ? 'application/octet-stream' : 'application/json';
}

/** Adds `charset=UTF-8` to text and JSON types that have no charset (the Java framework's default). */
export const withCharset = memoize(500, (mediaType: string): string => {
  if (/;\s*charset=/i.test(mediaType)) return mediaType;
  const lower = mediaType.toLowerCase();
  return lower.startsWith('text/') || isJsonType(lower) ? `${mediaType};charset=UTF-8` : mediaType;
});
