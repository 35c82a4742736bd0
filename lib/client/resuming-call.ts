/**
 * A call to a method that takes `Last-Event-ID`, as one Observable across reconnections: when its SSE answer ends
 * without an end event, or the connection drops, or the server (or a proxy before it) answers 502/503/504, it
 * asks again with the id of the last event received, after the server's `retry:` delay. Each event is emitted
 * once: the server sends only what follows that id. It completes on `event: done` or a 204, and fails after
 * `attempts` reconnections in a row without an event between them.
 */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscription } from 'rxjs';
import { WebApplicationException } from '../errors/web-application-exception';
import type { ClientEndpoint } from './client-endpoints';
import { isNetworkFailure } from './network-failure';
import {
  isEventStream,
  readEvents,
  readResponse,
  StreamEndedException,
  type ClientSseEvent,
  type ResponseReaders,
} from './read-response';
import type { ReconnectOptions } from './write-request';

/** Events after the last one received are gone: the server no longer holds them (trimmed, or its history was lost). */
export class StreamResetException extends Error {
  constructor(
    /** The oldest id the server still holds; `undefined` when it holds none. */
    readonly oldestId: string | undefined,
  ) {
    super(`Events were lost: the server holds none from before ${oldestId ?? 'now'}`);
    this.name = 'StreamResetException';
  }
}

const DEFAULT_ATTEMPTS = 5;
const DEFAULT_DELAY_MS = 1000;
/** Answers worth asking again: the server, or a proxy before it, is restarting or overloaded. */
const RETRIABLE_STATUSES = new Set([502, 503, 504]);

/** Sends the call, with `Last-Event-ID` when one is given. */
export type OpenCall = (signal: AbortSignal, lastEventId: string | undefined) => Promise<Response>;

/** Network failures (refused, reset, cut mid-body: marked where they arose), and answers a retry can help. */
function retriable(error: unknown): boolean {
  if (error instanceof WebApplicationException) return RETRIABLE_STATUSES.has(error.status);
  return isNetworkFailure(error);
}

/** What `event: reset` says: the oldest id held, or `none`. */
function oldestOf(data: unknown): string | undefined {
  return data === 'none' || data === undefined ? undefined : String(data);
}

export function resumingCall(
  open: OpenCall,
  endpoint: ClientEndpoint,
  readers: ResponseReaders,
  options: ReconnectOptions,
  asEvents: boolean,
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    let delay = options.delay ?? DEFAULT_DELAY_MS;
    let lastEventId: string | undefined;
    let failures = 0;
    let aborter: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inner: Subscription | undefined;

    const onEvent = (event: ClientSseEvent): void => {
      failures = 0;
      if (event.id !== undefined) lastEventId = event.id;
      if (asEvents) subscriber.next(event);
      switch (event.event) {
        case 'reset':
          if (asEvents) return;
          if (!options.onReset) throw new StreamResetException(oldestOf(event.data));
          return options.onReset(oldestOf(event.data));
        case 'done':
          return subscriber.complete();
        case 'cancelled':
        case 'error':
          if (asEvents) return subscriber.complete();
          throw new StreamEndedException(event.event, event.data);
        default:
          if (!asEvents) subscriber.next(event.data);
      }
    };
    const again = (error: unknown, canRetry = retriable(error)): void => {
      if (subscriber.closed) return;
      if (!canRetry || ++failures > attempts) return subscriber.error(error);
      timer = setTimeout(attempt, delay);
    };
    const read = (response: Response): void => {
      if (subscriber.closed) return;
      if (response.status === 204) return subscriber.complete();
      // Not a stream after all (a proxy's page, say): read as any answer, once.
      if (!isEventStream(response))
        return void (inner = readResponse(response, endpoint, readers, asEvents).subscribe(subscriber));
      readEvents(response, subscriber, endpoint, readers.json, {
        onEvent,
        onRetry: (milliseconds) => (delay = milliseconds),
      }).then(
        () =>
          again(new Error(`${endpoint.where}: the stream ended ${attempts + 1} times in a row without an event`), true),
        (error: unknown) => again(error),
      );
    };
    const attempt = (): void => {
      aborter = new AbortController();
      open(aborter.signal, lastEventId).then(read, (error: unknown) => again(error));
    };
    attempt();
    return () => {
      clearTimeout(timer);
      inner?.unsubscribe();
      aborter?.abort();
    };
  });
}
