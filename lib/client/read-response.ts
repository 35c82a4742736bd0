/**
 * Reads a successful answer into the values a client method emits, by its `Content-Type`: SSE events, records, JSON
 * array items, one whole value or byte chunks. A registered reader for the type and media type comes first.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs';
import type { JsonMapper } from '../json/json-mapper';
import type { EntityInput, MessageBodyReader } from '../body/message-body';
import { NDJSON, type ClientEndpoint } from './client-endpoints';
import { JsonArrayItems } from '../json/json-array-items';
import { JSON_ARRAY_ITEMS, STREAM_ITEMS_HEADER } from '../http/stream-items-header';
import { baseType } from '../http/media-type';
import { networkFailure } from './network-failure';
import { answerFault } from './response-processing';
import { boundedBytes, boundedText, ResponseTooLargeException, type ResolvedLimits } from './answer-limits';

export interface ResponseReaders {
  readonly json: JsonMapper;
  readonly readers: readonly MessageBodyReader[];
  readonly limits: ResolvedLimits;
}

/** One server-sent event as the client emits it in events mode: its data parsed like an item. */
export interface ClientSseEvent<T = unknown> {
  readonly data: T;
  readonly id?: string;
  readonly event?: string;
}

const RECORD_SEPARATOR = '\x1e';

function mediaTypeOf(response: Response): string {
  return baseType(response.headers.get('content-type') ?? '');
}

export function isEventStream(response: Response): boolean {
  return mediaTypeOf(response) === 'text/event-stream';
}

/** Reads the body chunk by chunk, until it ends or the subscriber has gone; cancels it when `take` throws. */
async function eachChunk(
  response: Response,
  subscriber: Subscriber<unknown>,
  take: (chunk: Uint8Array) => void,
): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read().catch(networkFailure);
      if (done || subscriber.closed) return;
      take(value);
    }
  } catch (error) {
    // An item past its limit, or one that does not parse: the rest of the answer is not wanted.
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

export async function eachText(
  response: Response,
  subscriber: Subscriber<unknown>,
  take: (text: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  await eachChunk(response, subscriber, (chunk) => take(decoder.decode(chunk, { stream: true })));
  const rest = decoder.decode();
  if (rest && !subscriber.closed) take(rest);
}

/** Line by line (NDJSON) or record by record (JSON text sequences): blank records are skipped. */
function records(
  response: Response,
  subscriber: Subscriber<unknown>,
  separator: string,
  { json, limits }: ResponseReaders,
): Promise<void> {
  // The record not ended yet, in the pieces it came in: each chunk is searched, never what is held (a record sent a
  // few bytes at a time would cost its length squared).
  const pending: string[] = [];
  let held = 0;
  const parse = (last: string) => {
    const record = pending.join('') + last;
    pending.length = held = 0;
    if (record.length > limits.maxItemSize) throw new ResponseTooLargeException('maxItemSize', limits.maxItemSize);
    const trimmed = record.trim();
    if (trimmed) subscriber.next(json.readValue(trimmed));
  };
  return eachText(response, subscriber, (text) => {
    let start = 0;
    for (let end = text.indexOf(separator); end >= 0; end = text.indexOf(separator, start)) {
      parse(text.slice(start, end));
      start = end + separator.length;
    }
    pending.push(text.slice(start));
    // A record that has not ended yet is held whole: it is bounded before it is complete.
    if ((held += text.length - start) > limits.maxItemSize)
      throw new ResponseTooLargeException('maxItemSize', limits.maxItemSize);
  }).then(() => parse(''));
}

/** An SSE event as the client emits it: its data JSON for a JSON element type, or when it holds an object or array. */
export function clientEvent({ data, id, event }: EventSourceMessage, endpoint: ClientEndpoint, json: JsonMapper) {
  const first = data.trimStart()[0];
  const isJson = endpoint.elementType?.includes('json') || first === '{' || first === '[';
  return { data: isJson ? json.readValue(data) : data, id, event };
}

/**
 * Hands the SSE events of an answer to `handlers` as they arrive until it ends; stops when `reading` is closed. An event
 * past `maxItemSize`, or one `onEvent` throws on, ends the reading as the answer's fault.
 */
export function eachEvent(
  response: Response,
  reading: Subscriber<unknown>,
  maxItemSize: number,
  handlers: { onEvent(event: EventSourceMessage): void; onRetry?(milliseconds: number): void },
): Promise<void> {
  let failure: unknown;
  const parser = createParser({
    // The lines of the event not dispatched yet are held: an event (or a line) that never ends is stopped here.
    maxBufferSize: maxItemSize,
    // The parser also reports lines the format says to ignore (an unknown field, a retry that is no number).
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded')
        failure ??= new ResponseTooLargeException('maxItemSize', maxItemSize);
    },
    onEvent: (event) => {
      if (failure !== undefined || reading.closed) return;
      // The buffer limit holds only what waits across chunks: an event that came whole in one is measured here.
      if (event.data.length > maxItemSize)
        return void (failure = new ResponseTooLargeException('maxItemSize', maxItemSize));
      try {
        handlers.onEvent(event);
      } catch (error) {
        failure = error;
      }
    },
    onRetry: handlers.onRetry,
  });
  return eachText(response, reading, (text) => {
    parser.feed(text);
    if (failure !== undefined) throw failure;
  }).catch((error: unknown) => {
    throw answerFault(response, error);
  });
}

/** Thrown where a stream ends with `event: error` (the server's stream failed after it began) or `event: cancelled`. */
export class StreamEndedException extends Error {
  constructor(
    /** `error` or `cancelled`. */
    readonly reason: string,
    readonly data: unknown,
  ) {
    super(
      reason === 'cancelled'
        ? 'The stream was cancelled by the server'
        : 'The stream failed on the server after it began',
    );
    this.name = 'StreamEndedException';
  }
}

/** A JSON array answer item by item (a body that is no array: one value bound to the declared class). */
function arrayItems(
  response: Response,
  subscriber: Subscriber<unknown>,
  endpoint: ClientEndpoint,
  { json, limits }: ResponseReaders,
) {
  const items = new JsonArrayItems();
  const take = (text: string) => {
    items.push(text, (item) => subscriber.next(json.readValue(item)));
    if (items.pending > limits.maxItemSize) throw new ResponseTooLargeException('maxItemSize', limits.maxItemSize);
    // A body that is no array is held whole until it ends: one value, bounded as a whole answer is.
    if (items.held > limits.maxBodySize) throw new ResponseTooLargeException('maxBodySize', limits.maxBodySize);
  };
  return eachText(response, subscriber, take).then(() => {
    const rest = items.end();
    if (rest !== undefined && rest.trim() && !subscriber.closed) subscriber.next(json.readValue(rest, endpoint.bindTo));
  });
}

function entityInput(response: Response, limit: number): EntityInput {
  return {
    bytes: () => boundedBytes(response, limit),
    text: () => boundedText(response, limit),
    stream: () => response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
  };
}

async function whole(
  response: Response,
  mediaType: string,
  endpoint: ClientEndpoint,
  readers: ResponseReaders,
): Promise<unknown> {
  const reader = readers.readers.find((candidate) => candidate.isReadable(endpoint.bindTo, mediaType));
  const limit = readers.limits.maxBodySize;
  if (reader) return reader.readFrom(endpoint.bindTo, mediaType, response.headers, entityInput(response, limit));
  if (response.status === 204 || response.status === 205) return undefined;
  if (mediaType === 'multipart/form-data')
    return new Response(await boundedBytes(response, limit), { headers: response.headers }).formData();
  const text = await boundedText(response, limit);
  if (mediaType.includes('json')) return text.trim() ? readers.json.readValue(text, endpoint.bindTo) : undefined;
  return text;
}

/** Whether a JSON array answer is items to emit one by one rather than one value. */
function isItemArray(response: Response, endpoint: ClientEndpoint): boolean {
  return endpoint.multi || (endpoint.untyped && response.headers.get(STREAM_ITEMS_HEADER) === JSON_ARRAY_ITEMS);
}

/** Reads the body by its media type into `subscriber`: events, records, array items, one whole value or chunks. */
function read(
  response: Response,
  subscriber: Subscriber<unknown>,
  endpoint: ClientEndpoint,
  responseReaders: ResponseReaders,
  asEvents: boolean,
): Promise<void> {
  const mediaType = mediaTypeOf(response);
  const readable = () => responseReaders.readers.some((reader) => reader.isReadable(endpoint.bindTo, mediaType));
  if (mediaType === 'text/event-stream') {
    return eachEvent(response, subscriber, responseReaders.limits.maxItemSize, {
      onEvent: (message) => {
        const event = clientEvent(message, endpoint, responseReaders.json);
        // The server's own word that the stream failed: an error, never an item.
        if (event.event === 'error' && !asEvents) throw new StreamEndedException('error', event.data);
        subscriber.next(asEvents ? event : event.data);
      },
    });
  }
  if (NDJSON.has(mediaType)) return records(response, subscriber, '\n', responseReaders);
  if (mediaType === 'application/json-seq') return records(response, subscriber, RECORD_SEPARATOR, responseReaders);
  if (isItemArray(response, endpoint) && mediaType.includes('json') && !readable())
    return arrayItems(response, subscriber, endpoint, responseReaders);
  const isWhole =
    mediaType.includes('json') || mediaType.startsWith('text/') || mediaType === 'multipart/form-data' || readable();
  if (!isWhole && response.body) return eachChunk(response, subscriber, (chunk) => subscriber.next(chunk));
  return whole(response, mediaType, endpoint, responseReaders).then((value) => {
    if (!subscriber.closed) subscriber.next(value);
  });
}

/**
 * The values of a successful answer, as an Observable that reads the body when subscribed (once: the body
 * is a stream) and stops reading when unsubscribed. `asEvents` emits whole SSE events instead of their data.
 */
export function readResponse(
  response: Response,
  endpoint: ClientEndpoint,
  readers: ResponseReaders,
  asEvents = false,
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    read(response, subscriber, endpoint, readers, asEvents).then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(answerFault(response, error)),
    );
  });
}
