/** Runs one request through the application's pipeline: answered as a Web `Response`, or onto Node's response. */
import { Observable } from 'rxjs/internal/Observable';
import type { EntityWriter } from '../body/entity-writers';
import type { CompressionSettings } from '../compression/compression-settings';
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { Router } from '../routing/router';
import { catchLater, settleToPromise, then, type StageFn, type UnroutedAnswer } from '../context/settle';
import { chain } from './chain';
import type { StageResult } from '../context/stage';
import type { Endpoint } from './endpoint';
import { recover, defaultErrorResponse } from './map-errors';
import { httpProblem } from '../errors/http-problem';
import { RequestContext } from '../context/request-context';
import { isRouteNotFound, selectEndpoint } from './select-endpoint';
import { releaseUnwritten } from '../streaming/started-bodies';
import { resetUnsentHead, sendOnNode, toWebResponse, writeBody, type OutgoingBody } from './write-response';
import { isSendableStatus, replaceUnsendable, unsendableHeader } from './unsendable-head';
import { completeWhenSent, completeWhenNodeSent } from './complete-when-sent';
import { takeoverOf } from '../context/takeover';
import type { Around } from '../feature/feature';
import { goesOutAsIs, headFinisher, type FinishAnswer } from '../runtime/runtime-answers';
import { responseMaker } from '../runtime/web-response';
import { isNodeInstance } from '../runtime/node-builtins';
import { EXECUTION_CONTEXT } from '../context/execution-context';

/** What the features do on every request (see `FeatureParts` for each), joined in feature order. */
export interface FeatureSteps {
  /** `receive`: before the pre-matching filters. */
  readonly first?: StageFn;
  readonly around: readonly Around[];
  readonly finish?: (ctx: RequestContext) => void;
  /** `write`. */
  readonly written: readonly ((response: Response) => Response)[];
  /** `complete`; absent: nothing is timed. */
  readonly observe?: (ctx: RequestContext, status: number, started: number) => void;
  /** `route`, in order. */
  readonly unrouted: readonly UnroutedAnswer[];
}

export interface PipelineParts extends FeatureSteps {
  readonly router: Router<Endpoint>;
  readonly preMatching?: StageFn;
  /** Global mappers and response filters, for errors raised before an endpoint is chosen (404, 405...). */
  readonly mappers?: ExceptionMappers;
  readonly responseFilters?: StageFn;
  readonly writers: readonly EntityWriter[];
  /** Absent: never compress. */
  readonly compression?: CompressionSettings;
  /** What the runtime serving `fetch` needs done to its answers (absent on Node and Deno). */
  readonly finishAnswer?: FinishAnswer;
}

/** What the runtime serving `fetch` does to one request's answer. */
type WebFinish = (answer: Response | Promise<Response>, ctx: RequestContext) => Response | Promise<Response>;

/** Writes a request's answer, as a Web `Response` or onto Node's response. */
type Write<T> = (ctx: RequestContext, started: number) => T | Promise<T>;

/**
 * The application's request pipeline: pre-matching filters → route → endpoint (request filters → method → mappers →
 * response filters) → write; synchronous, with no Observable, while every stage answers so.
 */
export class RequestPipeline {
  readonly #parts: PipelineParts;
  // The application's own: on Bun it keeps the header sets its answers repeat.
  readonly #makeResponse = responseMaker();
  readonly #finishHead = headFinisher();
  /** `receive`, the pre-matching filters, then routing. */
  readonly #receive: StageFn;

  constructor(parts: PipelineParts) {
    this.#parts = parts;
    const route = (ctx: RequestContext) => selectEndpoint(parts.router, ctx).handle(ctx);
    this.#receive = chain([parts.first, parts.preMatching, route].filter((stage) => stage !== undefined));
  }

  /** Answers `request` as a Web `Response` (`app.fetch`: in process, or under another server). */
  readonly fetch = (request: Request, environment?: unknown, executionCtx?: unknown): Response | Promise<Response> => {
    const ctx = new RequestContext(request, environment);
    if (executionCtx !== undefined) ctx.set(EXECUTION_CONTEXT, executionCtx);
    return this.#run(ctx, this.#parts.finishAnswer === undefined ? this.#web : this.#finishedWeb);
  };

  // Made once, not per request: what the runtime needs of the request comes from its context.
  readonly #finishedWeb = (ctx: RequestContext, started: number) => this.#web(ctx, started, this.#finishAnswer);

  readonly #finishAnswer: WebFinish = (answer, ctx) =>
    this.#parts.finishAnswer!(answer, ctx.receivedRequest, ctx.environment, ctx.get(EXECUTION_CONTEXT));

  /** Answers a request served by `listen()` onto its Node response, with no Web `Response` between. */
  readonly serve = (ctx: RequestContext): void | Promise<void> => this.#run(ctx, this.#node);

  /** Answers `ctx` inside the features' `around` (from the `from`th on); most requests are wrapped by none. */
  #run<T>(ctx: RequestContext, write: Write<T>, from = 0): T | Promise<T> {
    const { around } = this.#parts;
    for (let i = from; i < around.length; i++) {
      const wrap = around[i](ctx);
      if (wrap) return wrap(() => this.#run(ctx, write, i + 1));
    }
    return this.#answer(ctx, write);
  }

  /** Routes and handles `ctx`, then gives its answer to `write`: synchronously when every stage answered so. */
  #answer<T>(ctx: RequestContext, write: Write<T>): T | Promise<T> {
    const started = this.#parts.observe ? performance.now() : 0;
    let routed: StageResult<RequestContext>;
    try {
      routed = this.#receive(ctx);
      if (!(routed instanceof RequestContext))
        routed = catchLater(routed, (error) => this.#recoverUnrouted(ctx, error));
    } catch (error) {
      routed = this.#recoverUnrouted(ctx, error);
    }
    if (routed instanceof RequestContext) return this.#deliver(ctx, started, write);
    const failed = (error: unknown) => {
      ctx.response = defaultErrorResponse(error);
      return this.#deliver(ctx, started, write);
    };
    if (routed instanceof Observable) {
      return new Promise<T>((resolve) => {
        let answered = false;
        routed.subscribe({
          next: () => {
            if (!answered) resolve(this.#deliver(ctx, started, write));
            answered = true;
          },
          error: (error: unknown) => resolve(failed(error)),
          complete: () => answered || resolve(failed(new Error('The request pipeline completed without a response'))),
        });
      });
    }
    return Promise.resolve(routed).then(() => this.#deliver(ctx, started, write), failed);
  }

  /** The features' finishing touches on the answer, then `write`. */
  #deliver<T>(ctx: RequestContext, started: number, write: (ctx: RequestContext, started: number) => T): T {
    this.#parts.finish?.(ctx);
    return write(ctx, started);
  }

  /**
   * Errors raised before an endpoint took the request: the unrouted answers (for a 404), else global mappers, then
   * global response filters. On the error path, so that routing a request to a resource costs nothing more.
   */
  #recoverUnrouted(ctx: RequestContext, error: unknown): StageResult<RequestContext> {
    const answers = this.#parts.unrouted;
    if (!answers.length || !isRouteNotFound(error)) return this.#mapUnrouted(ctx, error);
    return this.#answerUnrouted(ctx, answers).then(
      (answered) => answered ?? settleToPromise(this.#mapUnrouted(ctx, error)),
      (failed: unknown) => settleToPromise(this.#mapUnrouted(ctx, failed)),
    );
  }

  async #answerUnrouted(ctx: RequestContext, answers: readonly UnroutedAnswer[]): Promise<RequestContext | undefined> {
    for (const answer of answers) {
      const answered = await answer(ctx);
      if (answered) return answered;
    }
    return undefined;
  }

  #mapUnrouted(ctx: RequestContext, error: unknown): StageResult<RequestContext> {
    const recovered = recover(ctx, error, this.#parts.mappers);
    const { responseFilters } = this.#parts;
    return responseFilters ? then(recovered, responseFilters) : recovered;
  }

  /** The answer as a Web `Response`, clean-ups run once sent; `finish` is what the runtime serving `fetch` does. */
  readonly #web = (ctx: RequestContext, started: number, finish?: WebFinish): Response | Promise<Response> => {
    const take = takeoverOf(ctx);
    if (take) {
      // A socket the runtime upgraded: its answer is the runtime's (none on Bun, whose server answers it itself).
      try {
        const answer = take(ctx) as Response;
        this.#parts.observe?.(ctx, 101, started);
        return finish ? finish(answer, ctx) : answer;
      } catch {
        // The runtime refused the handshake (Deno without `Sec-WebSocket-Key`): a problem, as on Node, written as any
        // answer so that its clean-ups run; the runtime's message stays here.
        ctx.response = defaultErrorResponse(
          httpProblem('RXREST_MALFORMED_HANDSHAKE', 'The WebSocket handshake could not be completed'),
        );
        this.#parts.finish?.(ctx);
      }
    }
    const written = this.#write(ctx);
    if (written instanceof Promise) return written.then((body) => this.#sentWeb(ctx, body, started, finish));
    return this.#sentWeb(ctx, written, started, finish);
  };

  #sentWeb(ctx: RequestContext, body: OutgoingBody, started: number, finish?: WebFinish): Response | Promise<Response> {
    let response: Response;
    try {
      response = toWebResponse(ctx, body, this.#makeResponse);
    } catch (error) {
      if (!replaceUnsendable(ctx, body)) throw error;
      this.#parts.finish?.(ctx);
      return this.#web(ctx, started, finish);
    }
    // A body written straight to the Node response answers with a marker: the status is the context's.
    this.#parts.observe?.(ctx, ctx.response?.status ?? response.status, started);
    if (ctx.method === 'HEAD' && this.#finishHead) response = this.#finishHead(response);
    const sent = completeWhenSent(ctx, response, typeof body === 'string' || body instanceof Uint8Array);
    // The runtime is not asked to look at an answer it sends as it is (on Bun, reading its headers costs).
    return finish === undefined || goesOutAsIs(body, ctx.response!.headers) ? sent : finish(sent, ctx);
  }

  /** The answer onto Node's response; clean-ups run once sent (or the connection lost). */
  readonly #node = (ctx: RequestContext, started: number): void | Promise<void> => {
    const take = takeoverOf(ctx);
    if (take) return (take(ctx), this.#parts.observe?.(ctx, 101, started));
    const written = this.#write(ctx);
    if (written instanceof Promise) return written.then((body) => this.#sentNode(ctx, body, started));
    return this.#sentNode(ctx, written, started);
  };

  #sentNode(ctx: RequestContext, body: OutgoingBody, started: number): void | Promise<void> {
    const outgoing = ctx.exchange!.outgoing;
    try {
      // Node checks an HTTP/1.1 head itself (and throws); HTTP/2 would send CR and LF on, and both any status to 999.
      if (
        !isSendableStatus(ctx.response!.status) ||
        (!isNodeInstance(outgoing, 'node:http', 'ServerResponse') &&
          unsendableHeader(ctx.response!.headers) !== undefined)
      )
        throw new Error('A response head cannot be sent');
      sendOnNode(ctx, body, outgoing);
    } catch (error) {
      if (outgoing.headersSent || !replaceUnsendable(ctx, body)) throw error;
      resetUnsentHead(outgoing);
      this.#parts.finish?.(ctx);
      return this.#node(ctx, started);
    }
    this.#parts.observe?.(ctx, ctx.response!.status, started);
    completeWhenNodeSent(ctx, outgoing);
  }

  #write(ctx: RequestContext): OutgoingBody | Promise<OutgoingBody> {
    const { writers, compression, written, finish } = this.#parts;
    // A stream or file that a later stage replaced is released, never leaked.
    releaseUnwritten(ctx);
    try {
      const body = writeBody(ctx, writers, compression);
      if (written.length === 0) return body;
      return body instanceof Promise ? body.then((made) => this.#written(made)) : this.#written(body);
    } catch (error) {
      ctx.response = defaultErrorResponse(error);
      ctx.response.entity = ctx.response.status === 500 ? ctx.response.entity : undefined;
      // The answer replacing one that could not be written is finished as any answer is.
      finish?.(ctx);
      releaseUnwritten(ctx);
      return writeBody(ctx, writers);
    }
  }

  /** A whole Web `Response` a server writer made, through the features' `write` steps. */
  #written(body: OutgoingBody): OutgoingBody {
    return body instanceof Response ? this.#parts.written.reduce((made, step) => step(made), body) : body;
  }
}
