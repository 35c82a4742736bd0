/** A POST that calls tools answered on one resumable SSE stream, or as plain JSON when all is ready at once. */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import type { Subscriber } from 'rxjs';
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import { merge } from 'rxjs/internal/observable/merge';
import { Subject } from 'rxjs/internal/Subject';
import { finalize } from 'rxjs/internal/operators/finalize';
import { takeUntil } from 'rxjs/internal/operators/takeUntil';
import { tap } from 'rxjs/internal/operators/tap';
import type { RequestContext } from '../context/request-context';
import { settleToPromise } from '../context/settle';
import { settleResult, type ResultPlan } from '../pipeline/settle-result';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import type { ResumableStream } from '../broadcast/resumable';
import { openCallStream } from './call-streams';
import { prefersStream, readsPrimingEvents } from './transport-headers';
import { answerResponses, SESSION_HEADER } from './transport-answers';
import { isResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from './json-rpc';
import type { McpServerRuntime } from './mcp-server-runtime';
import type { RequestScope } from './server-methods';
import { nextMacrotask } from '../runtime/timers';

export interface StreamAnswers {
  readonly plan: ResultPlan;
  readonly graceMs: number;
  readonly retryMs: number;
  /** Made after the build. */
  readonly topics: () => BroadcastTopics;
}

/**
 * A POST's messages held from the start: `early` has the responses when all came by the next turn with nothing before
 * them (answered as plain JSON); otherwise what came so far, then the rest, go to the stream, nothing lost or doubled.
 */
function holdMessages(source: Observable<JsonRpcMessage>) {
  const buffered: JsonRpcMessage[] = [];
  let ended: { error: unknown } | 'complete' | undefined;
  let reader: Subscriber<JsonRpcMessage> | undefined;
  const subscription = source.subscribe({
    next: (message) => (reader ? reader.next(message) : void buffered.push(message)),
    error: (error: unknown) => (reader ? reader.error(error) : void (ended = { error })),
    complete: () => (reader ? reader.complete() : void (ended = 'complete')),
  });
  const early = new Promise<readonly JsonRpcResponse[] | undefined>((resolve) =>
    nextMacrotask(() =>
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

/** A client that cannot resume (it read no priming event) leaving early cancels the calls: nobody could read them. */
function answered(events: Multi<SseEvent>, running: ResumableStream, resumes: boolean): Multi<SseEvent> {
  if (resumes) return events;
  let ended = false;
  return multi(
    events.pipe(
      tap({ complete: () => (ended = true) }),
      finalize(() => ended || running.cancel()),
    ),
  );
}

export function answerStream(
  ctx: RequestContext,
  events: Multi<SseEvent>,
  sessionId: string,
  answers: StreamAnswers,
): Promise<RequestContext> {
  ctx.negotiated = 'text/event-stream';
  return Promise.resolve(settleToPromise(settleResult(ctx, events, answers.plan))).then((settled) => {
    settled.response!.headers.set(SESSION_HEADER, sessionId);
    settled.response!.headers.set('cache-control', 'no-cache');
    return settled;
  });
}

export function answerOnStream(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  scope: RequestScope,
  requests: readonly JsonRpcRequest[],
  answers: StreamAnswers,
): Promise<RequestContext> {
  const { session } = scope;
  const primes = readsPrimingEvents(session.facts.protocolVersion);
  // A tool may end the HTTP answer early for a client that resumes (it reconnects and polls the rest).
  const cut = new Subject<void>();
  const closeStream = primes ? () => cut.next() : () => undefined;
  const messages = merge(
    ...requests.map((request) => {
      const tool = runtime.toolOf(request, scope.security);
      return tool ? runtime.call(tool, request, scope, closeStream) : from(runtime.answer(request, scope));
    }),
  );
  const held = holdMessages(messages);
  return held.early.then((early) => {
    if (early && !prefersStream(ctx)) return answerResponses(ctx, early, session.id);
    const ids = requests.map((request) => request.id);
    const options = { graceMs: answers.graceMs, retryMs: answers.retryMs, primes };
    return openCallStream(answers.topics(), session.id, ids, held.rest, options).then(
      ({ running, events }) =>
        answerStream(ctx, answered(multi(events.pipe(takeUntil(cut))), running, primes), session.id, answers),
      (error: unknown) => {
        held.cancel();
        throw error;
      },
    );
  });
}
