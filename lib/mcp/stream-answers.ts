/**
 * The answer of a POST that calls tools (or whose client would rather have SSE): one SSE stream with every request's
 * messages, kept in the store for resuming, through the framework's own stream machinery (byte budget, backpressure,
 * keep-alive, clean shutdown) — or, when every response is ready at once with nothing before it and the client takes
 * JSON as gladly, plain JSON.
 */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import { merge } from 'rxjs/internal/observable/merge';
import { Subject } from 'rxjs/internal/Subject';
import { takeUntil } from 'rxjs/internal/operators/takeUntil';
import type { RequestContext } from '../context/request-context';
import { settleToPromise, then } from '../context/settle';
import type { StageResult } from '../context/stage';
import { settleResult, type ResultPlan } from '../pipeline/settle-result';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import type { ResumableStream } from '../broadcast/resumable';
import { openCallStream } from './call-streams';
import { holdMessages } from './early-answers';
import { prefersStream } from './transport-headers';
import { answerResponses, SESSION_HEADER } from './transport-answers';
import type { JsonRpcMessage, JsonRpcRequest } from './json-rpc';
import type { McpServerRuntime } from './mcp-server-runtime';
import { readsPrimingEvents } from './protocol-versions';
import type { RequestScope } from './server-methods';

/** How a server's streams go out. */
export interface StreamAnswers {
  /** The stream settings of the application (`framework.rest.stream.*`). */
  readonly plan: ResultPlan;
  readonly graceMs: number;
  readonly retryMs: number;
  /** The application's broadcast topics, where call streams are kept (made after the build). */
  readonly topics: () => BroadcastTopics;
}

/** A call's messages, ended early (no response, as MCP says) when the client cancels it. */
function cancellable(
  source: Observable<JsonRpcMessage>,
  request: JsonRpcRequest,
  scope: RequestScope,
): Observable<JsonRpcMessage> {
  return new Observable<JsonRpcMessage>((subscriber) => {
    const key = String(request.id);
    const entry = { cancel: () => subscriber.complete() };
    scope.session.calls.set(key, entry);
    const subscription = source.subscribe(subscriber);
    return () => {
      subscription.unsubscribe();
      if (scope.session.calls.get(key) === entry) scope.session.calls.delete(key);
      scope.session.touch();
    };
  });
}

/**
 * The stream as this POST answers it. A client that cannot resume (it read no priming event) leaving before the end
 * cancels the calls: nobody could ever read their results.
 */
function answered(events: Multi<SseEvent>, running: ResumableStream, resumes: boolean): Multi<SseEvent> {
  if (resumes) return events;
  return multi(
    new Observable<SseEvent>((subscriber) => {
      let ended = false;
      const subscription = events.subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => subscriber.error(error),
        complete: () => ((ended = true), subscriber.complete()),
      });
      return () => {
        subscription.unsubscribe();
        if (!ended) running.cancel();
      };
    }),
  );
}

/** Answers `ctx` with `events` as SSE, under the session's id. */
export function answerStream(
  ctx: RequestContext,
  events: Multi<SseEvent>,
  sessionId: string,
  answers: StreamAnswers,
): Promise<RequestContext> {
  ctx.negotiated = 'text/event-stream';
  return Promise.resolve(
    settleToPromise(
      then(settleResult(ctx, events, answers.plan), (settled) => {
        settled.response!.headers.set(SESSION_HEADER, sessionId);
        settled.response!.headers.set('cache-control', 'no-cache');
        return settled;
      }),
    ),
  );
}

/** Answers the requests of a POST on one SSE stream: the calls' messages as they come, the other answers as they are ready. */
export function answerOnStream(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  scope: RequestScope,
  requests: readonly JsonRpcRequest[],
  answers: StreamAnswers,
): Promise<RequestContext> {
  const tools = requests.map((request) => runtime.toolOf(request, scope.security));
  const { session } = scope;
  const primes = readsPrimingEvents(session.facts.protocolVersion);
  // A tool may end the HTTP answer early, for a client that resumes (it reconnects and polls the rest).
  const cut = new Subject<void>();
  const closeStream = primes ? () => cut.next() : () => undefined;
  const messages = merge(
    ...requests.map((request, at) => {
      const tool = tools[at];
      return tool
        ? cancellable(runtime.call(tool, request, scope, closeStream), request, scope)
        : from(runtime.answer(request, scope));
    }),
  );
  const held = holdMessages(messages);
  return held.early.then((early) => {
    // Answered at once, and the client takes JSON as gladly: no stream, nothing stored.
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
