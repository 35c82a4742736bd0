/**
 * A call to a method that takes `Last-Event-ID`, as one Observable across reconnections: when its SSE answer ends
 * without an end event, drops, or answers 502/503/504, it asks again from the last event's id after the `retry:` delay.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs';
import type { ClientEndpoint } from './client-endpoints';
import {
  clientEvent,
  eachEvent,
  isEventStream,
  readResponse,
  StreamEndedException,
  type ClientSseEvent,
  type ResponseReaders,
} from './read-response';
import type { ReconnectOptions } from './write-request';
import { DEFAULT_ATTEMPTS, reconnecting, type Progress } from './reconnect';

/** Events after the last one received are gone: the server no longer holds them (trimmed, or its history was lost). */
export class StreamResetException extends Error {
  constructor(
    /** `undefined` when the server holds none. */
    readonly oldestId: string | undefined,
  ) {
    super(`Events were lost: the server holds none from before ${oldestId ?? 'now'}`);
    this.name = 'StreamResetException';
  }
}

export type OpenCall = (signal: AbortSignal, lastEventId: string | undefined) => Promise<Response>;

function oldestOf(data: unknown): string | undefined {
  return data === 'none' || data === undefined ? undefined : String(data);
}

/** Hands one event on, as its data or (`asEvents`) whole: `done` completes, `cancelled` and `error` end the call. */
function deliver(event: ClientSseEvent, subscriber: Subscriber<unknown>, options: ReconnectOptions, asEvents: boolean) {
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
}

export function resumingCall(
  open: OpenCall,
  endpoint: ClientEndpoint,
  readers: ResponseReaders,
  options: ReconnectOptions,
  asEvents: boolean,
): Observable<unknown> {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  return new Observable<unknown>((subscriber) => {
    const read = (response: Response, progress: Progress) => {
      if (response.status === 204) return void subscriber.complete();
      // Not a stream after all (a proxy's page, say): read as any answer, once.
      if (!isEventStream(response))
        return void readResponse(response, endpoint, readers, asEvents).subscribe(subscriber);
      const onEvent = (message: EventSourceMessage) => {
        // Converted first: an event whose data cannot be read is not one the stream got past.
        const event = clientEvent(message, endpoint, readers.json);
        progress.heard(message.id);
        deliver(event, subscriber, options, asEvents);
      };
      return eachEvent(response, subscriber, readers.limits.maxItemSize, { onEvent, onRetry: progress.retry }).then(
        () => new Error(`${endpoint.where}: the stream ended ${attempts + 1} times in a row without an event`),
      );
    };
    return reconnecting(subscriber, { ...options, fromStart: true }, open, read);
  });
}
