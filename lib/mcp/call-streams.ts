/**
 * The SSE stream a POST's requests answer on, kept in the broadcast store: the messages run as a resumable stream
 * (`resumable()`), so they go on when the client drops, within the grace, and a client resumes them with
 * `Last-Event-ID` on any instance sharing the store (`resume()`). Each event's id is the stream's id and the store's
 * id of the event: a resume reads that one stream, never another. A stream that ends without its responses (its
 * instance died, nobody came back within the grace) answers each request with an error, never with silence.
 */
import type { Observable } from 'rxjs';
import { EMPTY } from 'rxjs/internal/observable/empty';
import { concat } from 'rxjs/internal/observable/concat';
import { from } from 'rxjs/internal/observable/from';
import { of } from 'rxjs/internal/observable/of';
import { concatMap } from 'rxjs/internal/operators/concatMap';
import { filter } from 'rxjs/internal/operators/filter';
import { first } from 'rxjs/internal/operators/first';
import { map } from 'rxjs/internal/operators/map';
import { mergeMap } from 'rxjs/internal/operators/mergeMap';
import { takeWhile } from 'rxjs/internal/operators/takeWhile';
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { resumableIn, type ResumableStream } from '../broadcast/resumable';
import { resumeIn } from '../broadcast/resume';
import { isEnd } from '../broadcast/topic-events';
import { multi, type Multi } from '../streaming/multi';
import { sseEvent, type SseEvent } from '../streaming/sse-event';
import { errorMessage, INTERNAL_ERROR, isObject, type JsonRpcMessage, type RequestId } from './json-rpc';
import { ENDED_KEPT_MS } from './session-store';

/**
 * The first item of a stream: the ids of its requests. It is sent to a client that reads priming events as an event
 * with an id and empty data, so that it holds a `Last-Event-ID` before any message (SEP-1699); a stream that ends
 * without its responses answers these ids. Messages are JSON-RPC, so it cannot be mistaken for one.
 */
interface StreamHead {
  readonly requests: readonly RequestId[];
}

function isHead(data: unknown): data is StreamHead {
  return isObject(data) && !('jsonrpc' in data) && Array.isArray(data.requests);
}

/** Separates the stream's id from the store's in an event id (neither contains it). */
const SEPARATOR = '_';

/** A message of a stream (a call's or the notices') as the client reads it, its id naming the stream and the store's. */
export function messageEvent(streamId: string, storeId: string, data: unknown): SseEvent {
  return sseEvent({ id: `${streamId}${SEPARATOR}${storeId}`, event: 'message', data });
}

export interface CallStreamOptions {
  /** How long the calls go on once nobody reads the stream (milliseconds). */
  readonly graceMs: number;
  /** The `retry:` of the priming event (milliseconds). */
  readonly retryMs: number;
  /** Whether the client reads a priming event (MCP 2025-11-25 and later). */
  readonly primes: boolean;
}

/** The store key of a call stream: streams belong to their session, whose id is part of it. */
function streamKey(sessionId: string, streamId: string): string {
  return `mcp/${sessionId}/${streamId}`;
}

/** Where a `Last-Event-ID` of a call stream points: which stream, and the store's id in it. */
export interface StreamPosition {
  readonly streamId: string;
  readonly eventId: string;
}

export function readEventId(lastEventId: string): StreamPosition | undefined {
  const at = lastEventId.lastIndexOf(SEPARATOR);
  if (at <= 0 || at === lastEventId.length - 1) return undefined;
  return { streamId: lastEventId.slice(0, at), eventId: lastEventId.slice(at + 1) };
}

/** Why a stream ended without its responses, as the client is told. */
const LOST: Readonly<Record<string, string>> = {
  error: 'The call was lost: the server running it stopped',
  cancelled: 'The call was cancelled before it answered: nobody read it within the grace, or its server stopped',
};

/** The errors a stream that ended early answers its requests with (a client ignores those it already has). */
function endedEarly(topics: BroadcastTopics, key: string, streamId: string, end: SseEvent): Observable<SseEvent> {
  const reason = LOST[end.event!];
  if (reason === undefined) return EMPTY;
  return from(resumeIn(topics, key)).pipe(
    mergeMap((events) => events ?? EMPTY),
    first(),
    concatMap((head) => (isHead(head.data) ? head.data.requests : [])),
    map((id) => messageEvent(streamId, end.id!, errorMessage(id, INTERNAL_ERROR, reason))),
  );
}

/** The store's events of a stream as the client's SSE events, until the stream's end. */
function clientEvents(
  topics: BroadcastTopics,
  key: string,
  streamId: string,
  events: Multi<SseEvent>,
  options: CallStreamOptions,
): Multi<SseEvent> {
  return multi(
    events.pipe(
      takeWhile((event) => !isEnd(event), true),
      filter((event) => options.primes || !isHead(event.data)),
      concatMap((event) => {
        if (isEnd(event)) return endedEarly(topics, key, streamId, event);
        // A reset (events lost) goes out as it is: the client is told, its Last-Event-ID unchanged.
        if (event.id === undefined) return of(event);
        return of(
          isHead(event.data)
            ? sseEvent({ id: `${streamId}${SEPARATOR}${event.id}`, retry: options.retryMs, data: '' })
            : messageEvent(streamId, event.id, event.data),
        );
      }),
    ),
  );
}

export interface OpenedStream {
  readonly running: ResumableStream;
  /** What this POST answers: the stream from its first event. */
  readonly events: Multi<SseEvent>;
}

/** Starts `messages` as the stream of a POST's `requests`; rejects with 503 when the store cannot take it. */
export async function openCallStream(
  topics: BroadcastTopics,
  sessionId: string,
  requests: readonly RequestId[],
  messages: Observable<JsonRpcMessage>,
  options: CallStreamOptions,
): Promise<OpenedStream> {
  const streamId = crypto.randomUUID();
  const key = streamKey(sessionId, streamId);
  const head: StreamHead = { requests };
  const running = await resumableIn(topics, key, concat(of(head), messages), { grace: options.graceMs });
  // Kept for a client cut before the end to come back within the grace, not for the retention's hour (a stranger's
  // calls by the thousand, each up to retention.max-bytes, in Redis for that hour); at least for as long as the
  // instances reading it live take to hear its end.
  void running.ended.then(() => topics.backplane.expire(key, Math.max(options.graceMs, ENDED_KEPT_MS)));
  const events = await resumeIn(topics, key);
  return { running, events: clientEvents(topics, key, streamId, events!, options) };
}

/**
 * A call stream resumed after `position` (its events since, then live), `undefined` when the client already has its
 * end; rejects with a 404 problem when the session holds no such stream (never was, or no longer kept).
 */
export async function resumeCallStream(
  topics: BroadcastTopics,
  sessionId: string,
  position: StreamPosition,
  retryMs: number,
): Promise<Multi<SseEvent> | undefined> {
  const key = streamKey(sessionId, position.streamId);
  const events = await resumeIn(topics, key, { lastEventId: position.eventId });
  return events && clientEvents(topics, key, position.streamId, events, { retryMs, primes: true, graceMs: 0 });
}
