/**
 * The messages an MCP server answers a POST with, as one Observable: an SSE answer that ends or drops before the
 * consumer has its response is resumed with `GET` and `Last-Event-ID`, after the server's `retry:`.
 */
import { Observable } from 'rxjs/internal/Observable';
import { exceptionFor } from './client-errors';
import type { Subscriber } from 'rxjs';
import { eachEvent, isEventStream } from './read-response';
import { boundedText, DEFAULT_LIMITS, type ResolvedLimits } from './answer-limits';
import { parseJsonBody } from '../json/safe-json';
import { answerFault } from './response-processing';
import { reconnecting, type Progress, type Reconnect } from './reconnect';

/** How an MCP call reconnects a cut SSE answer. */
export type McpReconnectOptions = Reconnect;

export type Reopen = (lastEventId: string, signal: AbortSignal) => Promise<Response>;

/** One message (or batch): malformed JSON or a prototype-poisoning key fails the call as the answer's fault. */
function messageOf(response: Response, text: string): unknown {
  try {
    return parseJsonBody(text);
  } catch (error) {
    throw answerFault(response, error);
  }
}

/** Hands each message of one answer on and completes the call; an SSE answer that ends first resolves its error. */
async function readAnswer(
  response: Response,
  subscriber: Subscriber<unknown>,
  progress: Progress,
  limits: ResolvedLimits,
): Promise<Error | undefined> {
  if (!response.ok) throw await exceptionFor(response, limits.maxBodySize);
  if (response.status === 202 || response.status === 204) return void subscriber.complete();
  if (!isEventStream(response)) {
    const body = messageOf(response, await boundedText(response, limits.maxBodySize));
    for (const message of Array.isArray(body) ? body : [body]) subscriber.next(message);
    return void subscriber.complete();
  }
  await eachEvent(response, subscriber, limits.maxItemSize, {
    onEvent: (event) => {
      progress.heard(event.id || undefined);
      if (event.data !== '' && (event.event === undefined || event.event === 'message'))
        subscriber.next(messageOf(response, event.data));
    },
    // A retry: is word from the server as an event is: the failures in a row count from 0 again.
    onRetry: (milliseconds) => {
      progress.retry(milliseconds);
      progress.heard();
    },
  });
  return new Error('the stream ended before its answer');
}

/**
 * The messages of a call: a cut call with an event id is resumed, but given up past `attempts` failures in a row, at
 * an answer that would come again (any but a network failure or a 502/503/504), or at an event that could not be read
 * (resuming after its id would pass over it).
 */
export function mcpMessages(
  first: (signal: AbortSignal) => Promise<Response>,
  reopen: Reopen,
  options: McpReconnectOptions = {},
  limits: ResolvedLimits = DEFAULT_LIMITS,
): Observable<unknown> {
  return new Observable<unknown>((subscriber) =>
    reconnecting(
      subscriber,
      { ...options, fromStart: false },
      (signal, lastEventId) => (lastEventId === undefined ? first(signal) : reopen(lastEventId, signal)),
      (response, progress) => readAnswer(response, subscriber, progress, limits),
    ),
  );
}
