/** How the items of a stream become bytes for each negotiated media type: SSE, NDJSON, JSON array, chunks. */
import { formatSseData, formatSseEvent, isSseEvent, looksLikeSseEvent, type SseEvent } from './sse-event';
import { JSON_ARRAY_ITEMS, STREAM_ITEMS_HEADER } from '../http/stream-items-header';
import { baseType, isJsonText } from '../http/media-type';
import { isJsonItemType, JSON_SEQ } from '../http/streaming-types';

/** The framing of one stream: text before, per item, between items, after, and what a failure after commit writes. */
export interface Framing {
  readonly mediaType: string;
  readonly start: string;
  /** The frame of one item. Bytes items are written as they are; `undefined`: nothing is sent for it. */
  frame(item: unknown): string | Uint8Array | undefined;
  /** The frames of several items at once, joined by the separator, where one call is cheaper than one per item. */
  readonly frameMany?: (items: unknown[]) => string;
  /** Written between two items (a JSON array's comma) by the writer, so an item dropped takes none along. */
  readonly separator: string;
  readonly end: string;
  /** Written before closing when the source fails after commit; `undefined`: abort the connection instead. */
  readonly errorFrame: string | undefined;
  /** Whether keep-alive comments apply (SSE only). */
  readonly keepAlive: boolean;
  /** Each frame is a message of its own (a WebSocket's): frames are never joined into one write. */
  readonly messages?: boolean;
  /** A header the response carries to say how its items are framed (`Stream-Items` on a JSON array). */
  readonly itemsHeader?: readonly [name: string, value: string];
  /** Framings with one key frame an item alike, so a broadcast tick's item is framed once for all of their streams. */
  readonly shareKey?: string;
  /** `frame`, for an item framed once for many streams already: no cache of its own to fill. */
  readonly frameShared?: (item: unknown) => string | Uint8Array | undefined;
}

/** What every framing but SSE's has: nothing around or between items, no error frame, no keep-alive. */
export const BARE_FRAMING = { start: '', separator: '', end: '', errorFrame: undefined, keepAlive: false } as const;

// RFC 7464 §2.2: each JSON text of a sequence starts with RECORD SEPARATOR and ends with LINE FEED.
const RECORD_SEPARATOR = '\x1e';

/** One JSON text as a body of one item of such a type. */
export function jsonItem(json: string, mediaType: string): string {
  return baseType(mediaType) === JSON_SEQ ? `${RECORD_SEPARATOR}${json}\n` : `${json}\n`;
}

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

export function toJson(value: unknown): string {
  try {
    // Without a replacer, which V8 would call for every key and value: several times slower.
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    // A BigInt anywhere in the value: written as a string.
    if (error instanceof TypeError && error.message.includes('BigInt'))
      return JSON.stringify(value, replacer) ?? 'null';
    throw error;
  }
}

/** Serializes an item as `elementType`: strings as they are, scalars as text under text types, objects as JSON. */
function serializer(elementType: string | undefined): (item: unknown) => string {
  const base = elementType === undefined ? undefined : baseType(elementType);
  if (base !== undefined && isJsonText(base)) return toJson;
  const text = base?.startsWith('text/') === true;
  return (item) =>
    typeof item === 'string' ? item : text && (typeof item !== 'object' || item === null) ? String(item) : toJson(item);
}

// SSE frames of `sseEvent()` events under the default element type: an event broadcast to many is serialized once.
const sharedFrames = new WeakMap<object, string>();

/** `cached`: frames of `sseEvent()` events kept for the other streams that send them. */
function sseFraming(elementType: string | undefined, cached = elementType === undefined): Framing {
  const serialize = serializer(elementType);
  const format = (item: SseEvent) => formatSseEvent(item, item.data === undefined ? undefined : serialize(item.data));
  return {
    ...BARE_FRAMING,
    mediaType: 'text/event-stream',
    frame(item) {
      if (isSseEvent(item)) {
        if (!cached) return format(item);
        let frame = sharedFrames.get(item);
        if (frame === undefined) sharedFrames.set(item, (frame = format(item)));
        return frame;
      }
      if (looksLikeSseEvent(item)) return format(item);
      return formatSseData(serialize(item));
    },
    // The client learns of the failure without any detail of it (the log has those).
    errorFrame: 'event:error\ndata:stream failed\n\n',
    keepAlive: true,
  };
}

/** The SSE framing of the default element type: immutable, so one for every stream. */
const DEFAULT_SSE: Framing = {
  ...sseFraming(undefined),
  shareKey: 'sse',
  frameShared: sseFraming(undefined, false).frame,
};

/** One JSON text and `\n` per item, after `prefix` (RFC 7464's record separator, or none for NDJSON). */
function lineFraming(mediaType: string, prefix: string, shareKey: string): Framing {
  return { ...BARE_FRAMING, mediaType, frame: (item) => `${prefix}${toJson(item)}\n`, shareKey };
}

function jsonArrayFraming(mediaType: string): Framing {
  return {
    ...BARE_FRAMING,
    mediaType,
    start: '[',
    frame: toJson,
    // One JSON.stringify of many small items costs about half as much as one call each.
    frameMany: (items) => toJson(items).slice(1, -1),
    separator: ',',
    end: ']',
    itemsHeader: [STREAM_ITEMS_HEADER, JSON_ARRAY_ITEMS],
    shareKey: 'json',
  };
}

function chunkFraming(mediaType: string): Framing {
  const serialize = serializer(mediaType);
  return {
    ...BARE_FRAMING,
    mediaType,
    frame: (item) =>
      item instanceof Uint8Array ? item : item instanceof ArrayBuffer ? new Uint8Array(item) : serialize(item),
  };
}

/**
 * The framing for a negotiated media type: `text/event-stream` → SSE, the NDJSON family → one JSON value and `\n`
 * per item, `application/json-seq` → RFC 7464 records, `application/json` (and `+json`) → one streamed JSON array
 * (`[]` when empty), anything else → one serialized item per chunk. `elementType` serializes SSE data.
 *
 * @example
 * framingFor('application/x-ndjson').frame({ a: 1 }); // '{"a":1}\n'
 */
export function framingFor(mediaType: string, elementType?: string): Framing {
  const base = baseType(mediaType);
  if (base === 'text/event-stream') return elementType === undefined ? DEFAULT_SSE : sseFraming(elementType);
  if (base === JSON_SEQ) return lineFraming(mediaType, RECORD_SEPARATOR, 'json-seq');
  if (isJsonItemType(base)) return lineFraming(mediaType, '', 'ndjson');
  if (isJsonText(base)) return jsonArrayFraming(mediaType);
  return chunkFraming(mediaType);
}
