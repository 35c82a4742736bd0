/**
 * The SSE stream a POST's calls answer on, kept in the broadcast store: the messages run as a resumable stream
 * (`resumable()`), so they go on when the client drops, within the grace, and a client resumes them with
 * `Last-Event-ID` on any instance sharing the store (`resume()`). Each event's id is the stream's id and the store's
 * id of the event: a resume reads that one stream, never another.
 */
import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
import { concat } from 'rxjs/internal/observable/concat';
import { of } from 'rxjs/internal/observable/of';
import { map } from 'rxjs/internal/operators/map';
import { takeWhile } from 'rxjs/internal/operators/takeWhile';
import { resumable, type ResumableStream } from '../broadcast/resumable';
import { resume } from '../broadcast/resume';
import { isEnd } from '../broadcast/topic-events';
import { multi, type Multi } from '../streaming/multi';
import { sseEvent, type SseEvent } from '../streaming/sse-event';
import type { JsonRpcMessage } from './json-rpc';

/**
 * The first item of a stream: stored like a message, sent as an event with an id and empty data, so that the client
 * holds a `Last-Event-ID` before any message (SEP-1699). Messages are objects, so a string cannot be mistaken for one.
 */
const PRIMING = '';

/** Separates the stream's id from the store's in an event id (neither contains it). */
const SEPARATOR = '_';

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

/** The store's events of a stream as the client's SSE events, until the stream's end (which the client is not sent). */
function clientEvents(streamId: string, events: Multi<SseEvent>, retryMs: number): Multi<SseEvent> {
  return multi(
    events.pipe(
      takeWhile((event) => !isEnd(event)),
      map((event) => {
        // A reset (events lost) goes out as it is: the client is told, its Last-Event-ID unchanged.
        if (event.id === undefined) return event;
        const id = `${streamId}${SEPARATOR}${event.id}`;
        return event.data === PRIMING
          ? sseEvent({ id, retry: retryMs, data: '' })
          : sseEvent({ id, event: 'message', data: event.data });
      }),
    ),
  );
}

export interface OpenedStream {
  readonly running: ResumableStream;
  /** What this POST answers: the stream from its first event. */
  readonly events: Multi<SseEvent>;
}

/** Starts `messages` as the call stream of a POST of `sessionId`; rejects with 503 when the store cannot take it. */
export async function openCallStream(
  sessionId: string,
  messages: Observable<JsonRpcMessage>,
  options: CallStreamOptions,
): Promise<OpenedStream> {
  const streamId = randomUUID();
  const key = streamKey(sessionId, streamId);
  const source: Observable<JsonRpcMessage | string> = options.primes ? concat(of(PRIMING), messages) : messages;
  const running = await resumable(key, source, { grace: options.graceMs });
  const events = await resume(key);
  return { running, events: clientEvents(streamId, events!, options.retryMs) };
}

/**
 * A call stream resumed after `position` (its events since, then live), `undefined` when the client already has its
 * end; rejects with a 404 problem when the session holds no such stream (never was, or no longer kept).
 */
export async function resumeCallStream(
  sessionId: string,
  position: StreamPosition,
  retryMs: number,
): Promise<Multi<SseEvent> | undefined> {
  const events = await resume(streamKey(sessionId, position.streamId), { lastEventId: position.eventId });
  return events && clientEvents(position.streamId, events, retryMs);
}
