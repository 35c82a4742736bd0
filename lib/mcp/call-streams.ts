/** The SSE stream a POST's requests answer on: a resumable stream of the broadcast store, never ending in silence. */
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
import { formatSize } from '../http/size';
import { errorMessage, INTERNAL_ERROR, isObject, isResponse, type JsonRpcMessage, type RequestId } from './json-rpc';
import { ENDED_KEPT_MS } from './session-store';

/**
 * The first item of a stream: a priming event with an id and empty data, so the client holds a `Last-Event-ID`
 * before any message (SEP-1699), and the ids a stream that ends without its responses answers.
 */
interface StreamHead {
  readonly requests: readonly RequestId[];
}

function isHead(data: unknown): data is StreamHead {
  return isObject(data) && !('jsonrpc' in data) && Array.isArray(data.requests);
}

/** Neither the stream's id nor the store's contains it. */
const SEPARATOR = '_';

/** A message of a stream (a call's or the notices') as the client reads it. */
export function messageEvent(streamId: string, storeId: string, data: unknown): SseEvent {
  return sseEvent({ id: `${streamId}${SEPARATOR}${storeId}`, event: 'message', data });
}

export interface CallStreamOptions {
  /** How long the calls go on once nobody reads the stream. */
  readonly graceMs: number;
  /** The `retry:` of the priming event. */
  readonly retryMs: number;
  readonly primes: boolean;
}

/** Streams belong to their session. */
function streamKey(sessionId: string, streamId: string): string {
  return `mcp/${sessionId}/${streamId}`;
}

export interface StreamPosition {
  readonly streamId: string;
  readonly eventId: string;
}

export function readEventId(lastEventId: string): StreamPosition | undefined {
  const at = lastEventId.lastIndexOf(SEPARATOR);
  if (at <= 0 || at === lastEventId.length - 1) return undefined;
  return { streamId: lastEventId.slice(0, at), eventId: lastEventId.slice(at + 1) };
}

const LOST: Readonly<Record<string, string>> = {
  error: 'The call was lost: the server running it stopped',
  cancelled: 'The call was cancelled before it answered: nobody read it within the grace, or its server stopped',
};

/** The errors a stream that ended early answers its requests with (a client ignores those it has). */
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
        if (event.id === undefined) return [event];
        if (!isHead(event.data)) return [messageEvent(streamId, event.id, event.data)];
        return [sseEvent({ id: `${streamId}${SEPARATOR}${event.id}`, retry: options.retryMs, data: '' })];
      }),
    ),
  );
}

/**
 * What a call's stream stores instead of a message past `framework.broadcast.max-event-size`: a response becomes an
 * error the client is told (it failed the whole stream as lost), a notification is dropped.
 */
function oversized(maxEventSize: number) {
  const detail = `The response is larger than ${formatSize(maxEventSize)}, the most a call's stream holds (framework.broadcast.max-event-size)`;
  return (item: StreamHead | JsonRpcMessage) =>
    isHead(item) || !isResponse(item) ? undefined : errorMessage(item.id, INTERNAL_ERROR, detail);
}

/** Starts `messages` as the stream of a POST's `requests`; rejects with 503 when the store cannot take it. */
export async function openCallStream(
  topics: BroadcastTopics,
  sessionId: string,
  requests: readonly RequestId[],
  messages: Observable<JsonRpcMessage>,
  options: CallStreamOptions,
): Promise<{ running: ResumableStream; events: Multi<SseEvent> }> {
  const streamId = crypto.randomUUID();
  const key = streamKey(sessionId, streamId);
  const head: StreamHead = { requests };
  const stored = concat(of<StreamHead | JsonRpcMessage>(head), messages);
  const running = await resumableIn(topics, key, stored, { grace: options.graceMs }, oversized(topics.maxEventSize));
  // Kept for the grace, not the retention's hour (a stranger's calls by the thousand in Redis for that hour).
  void running.ended.then(() => topics.backplane.expire(key, Math.max(options.graceMs, ENDED_KEPT_MS)));
  const events = await resumeIn(topics, key);
  return { running, events: clientEvents(topics, key, streamId, events!, options) };
}

/** `undefined` when the client already has the end; rejects with a 404 problem when there is no such stream. */
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
