/**
 * A call to a method that takes `Last-Event-ID`, as one Observable across reconnections: when its SSE answer ends
 * without an end event, drops, or answers 502/503/504, it asks again from the last event's id after the `retry:` delay.
 */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber, Subscription } from 'rxjs';
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
import { MAX_TIMER_MS } from '../runtime/timers';

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

const DEFAULT_ATTEMPTS = 5;
const DEFAULT_DELAY_MS = 1000;
/** The server, or a proxy before it, is restarting or overloaded. */
const RETRIABLE_STATUSES = new Set([502, 503, 504]);

export type OpenCall = (signal: AbortSignal, lastEventId: string | undefined) => Promise<Response>;

function retriable(error: unknown): boolean {
  return error instanceof WebApplicationException ? RETRIABLE_STATUSES.has(error.status) : isNetworkFailure(error);
}

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

class Resumption {
  readonly #attempts: number;
  #delay: number;
  #lastEventId: string | undefined;
  #failures = 0;
  #aborter: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inner: Subscription | undefined;

  constructor(
    readonly subscriber: Subscriber<unknown>,
    readonly open: OpenCall,
    readonly endpoint: ClientEndpoint,
    readonly readers: ResponseReaders,
    readonly options: ReconnectOptions,
    readonly asEvents: boolean,
  ) {
    this.#attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    this.#delay = options.delay ?? DEFAULT_DELAY_MS;
  }

  attempt = (): void => {
    this.#aborter = new AbortController();
    this.open(this.#aborter.signal, this.#lastEventId).then(this.#read, this.#again);
  };

  stop(): void {
    clearTimeout(this.#timer);
    this.#inner?.unsubscribe();
    this.#aborter?.abort();
  }

  #again = (error: unknown, canRetry = retriable(error)): void => {
    if (this.subscriber.closed) return;
    if (!canRetry || ++this.#failures > this.#attempts) return this.subscriber.error(error);
    this.#timer = setTimeout(this.attempt, this.#delay);
  };

  #read = (response: Response): void => {
    const { subscriber, endpoint, readers, asEvents } = this;
    if (subscriber.closed) return;
    if (response.status === 204) return subscriber.complete();
    // Not a stream after all (a proxy's page, say): read as any answer, once.
    if (!isEventStream(response))
      return void (this.#inner = readResponse(response, endpoint, readers, asEvents).subscribe(subscriber));
    // A retry: past what a timer holds would be taken for 1 ms: a reconnection loop instead of a long wait.
    const onRetry = (milliseconds: number) => (this.#delay = Math.min(milliseconds, MAX_TIMER_MS));
    const handlers = { onEvent: this.#onEvent, onRetry };
    readEvents(response, subscriber, endpoint, readers, handlers).then(this.#ended, this.#again);
  };

  #ended = (): void => {
    const { where } = this.endpoint;
    this.#again(new Error(`${where}: the stream ended ${this.#attempts + 1} times in a row without an event`), true);
  };

  #onEvent = (event: ClientSseEvent): void => {
    this.#failures = 0;
    if (event.id !== undefined) this.#lastEventId = event.id;
    deliver(event, this.subscriber, this.options, this.asEvents);
  };
}

export function resumingCall(
  open: OpenCall,
  endpoint: ClientEndpoint,
  readers: ResponseReaders,
  options: ReconnectOptions,
  asEvents: boolean,
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const resumption = new Resumption(subscriber, open, endpoint, readers, options, asEvents);
    resumption.attempt();
    return () => resumption.stop();
  });
}
