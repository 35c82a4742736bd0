/**
 * The messages an MCP server answers a POST with, as one Observable: an SSE answer that ends or drops before the
 * consumer has its response is resumed with `GET` and `Last-Event-ID`, after the server's `retry:`.
 */
import { createParser } from 'eventsource-parser';
import { Observable } from 'rxjs/internal/Observable';
import { exceptionFor } from './client-errors';
import type { Subscriber } from 'rxjs';
import { eachText, isEventStream } from './read-response';
import { MAX_TIMER_MS } from '../runtime/timers';
import { boundedText, DEFAULT_LIMITS, ResponseTooLargeException, type ResolvedLimits } from './answer-limits';
import { parseJsonBody } from '../json/safe-json';
import { answerFault, ResponseProcessingException } from './response-processing';

const DEFAULT_ATTEMPTS = 5;
const DEFAULT_DELAY_MS = 1000;

export interface McpReconnectOptions {
  /** Reconnections in a row without an event before the call fails (default 5). */
  readonly attempts?: number;
  /** The wait before reconnecting when the server gave no `retry:` (milliseconds, default 1000). */
  readonly delay?: number;
}

export type Reopen = (lastEventId: string, signal: AbortSignal) => Promise<Response>;

/** One message (or batch): malformed JSON or a prototype-poisoning key fails the call as the answer's fault. */
function messageOf(response: Response, text: string): unknown {
  try {
    return parseJsonBody(text);
  } catch (error) {
    throw answerFault(response, error);
  }
}

/** Hands each message of one answer on: `true` when the call is answered, `false` when an SSE answer ended. */
async function readAnswer(
  response: Response,
  subscriber: Subscriber<unknown>,
  seen: (id: string | undefined, retry: number | undefined) => void,
  limits: ResolvedLimits,
): Promise<boolean> {
  if (!response.ok) throw await exceptionFor(response, limits.maxBodySize);
  if (response.status === 202 || response.status === 204) return true;
  if (!isEventStream(response)) {
    const body = messageOf(response, await boundedText(response, limits.maxBodySize));
    for (const message of Array.isArray(body) ? body : [body]) subscriber.next(message);
    return true;
  }
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: limits.maxItemSize,
    onError: () => (failure ??= new ResponseTooLargeException('maxItemSize', limits.maxItemSize)),
    onEvent: (event) => {
      seen(event.id, undefined);
      if (event.data !== '' && (event.event === undefined || event.event === 'message'))
        subscriber.next(messageOf(response, event.data));
    },
    onRetry: (milliseconds) => seen(undefined, milliseconds),
  });
  await eachText(response, subscriber, (text) => {
    parser.feed(text);
    if (failure) throw failure;
  });
  return false;
}

/**
 * Whether a cut call with an event id is given up rather than resumed: past `attempts` failures in a row, or at an
 * event that could not be read (resuming after its id would pass over it).
 */
function givesUp(error: unknown, failures: number, attempts: number): boolean {
  return error instanceof ResponseProcessingException || failures > attempts;
}

export function mcpMessages(
  first: (signal: AbortSignal) => Promise<Response>,
  reopen: Reopen,
  options: McpReconnectOptions = {},
  limits: ResolvedLimits = DEFAULT_LIMITS,
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    let delay = options.delay ?? DEFAULT_DELAY_MS;
    let lastEventId: string | undefined;
    let failures = 0;
    let aborter = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = (id: string | undefined, retry: number | undefined) => {
      if (id !== undefined && id !== '') lastEventId = id;
      // Past what a timer holds, a retry: would be taken for 1 ms: a reconnection loop instead of a long wait.
      if (retry !== undefined) delay = Math.min(retry, MAX_TIMER_MS);
      failures = 0;
    };
    const read = async (response: Response): Promise<void> => {
      if (await readAnswer(response, subscriber, seen, limits)) return subscriber.complete();
      again(new Error('the stream ended before its answer'));
    };
    const again = (error: unknown): void => {
      if (subscriber.closed) return;
      if (lastEventId === undefined || givesUp(error, ++failures, attempts)) return subscriber.error(error);
      const after = lastEventId;
      timer = setTimeout(() => {
        aborter = new AbortController();
        reopen(after, aborter.signal).then(read).catch(again);
      }, delay);
    };
    first(aborter.signal).then(read).catch(again);
    return () => {
      clearTimeout(timer);
      aborter.abort();
    };
  });
}
