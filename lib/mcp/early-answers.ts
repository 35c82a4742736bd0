/**
 * A POST's messages held from the start: when every response is there by the next turn of the event loop with no
 * notification before it (a tool that answers at once), the POST can be answered as plain JSON, without a stream
 * or the store; otherwise what came so far, then the rest, go to the stream, in order, nothing lost or doubled.
 */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs';
import { isResponse, type JsonRpcMessage, type JsonRpcResponse } from './json-rpc';

export interface HeldMessages {
  /** The responses, when they were all there by the next turn, with nothing else before them; else `undefined`. */
  readonly early: Promise<readonly JsonRpcResponse[] | undefined>;
  /** What came so far, then the rest (one subscriber). */
  readonly rest: Observable<JsonRpcMessage>;
  /** Stops the source when nothing will read it. */
  cancel(): void;
}

export function holdMessages(source: Observable<JsonRpcMessage>): HeldMessages {
  const buffered: JsonRpcMessage[] = [];
  let ended: { error: unknown } | 'complete' | undefined;
  let reader: Subscriber<JsonRpcMessage> | undefined;
  const subscription = source.subscribe({
    next: (message) => (reader ? reader.next(message) : void buffered.push(message)),
    error: (error: unknown) => (reader ? reader.error(error) : void (ended = { error })),
    complete: () => (reader ? reader.complete() : void (ended = 'complete')),
  });
  const early = new Promise<readonly JsonRpcResponse[] | undefined>((resolve) =>
    setImmediate(() =>
      resolve(ended === 'complete' && buffered.every(isResponse) ? (buffered as JsonRpcResponse[]) : undefined),
    ),
  );
  const rest = new Observable<JsonRpcMessage>((subscriber) => {
    reader = subscriber;
    for (const message of buffered.splice(0)) subscriber.next(message);
    if (ended === 'complete') subscriber.complete();
    else if (ended) subscriber.error(ended.error);
    return () => subscription.unsubscribe();
  });
  return { early, rest, cancel: () => subscription.unsubscribe() };
}
