/** Runs one request through the application's pipeline and hands back a Web `Response`. */
import { catchError, Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { EntityWriter } from '../body/entity-writers';
import type { CompressionSettings } from '../compression/compression-settings';
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { Router } from '../routing/router';
import { toObservable } from './chain';
import type { Endpoint } from './endpoint';
import { recover, defaultErrorResponse } from './map-errors';
import { RequestContext } from './request-context';
import { selectEndpoint } from './select-endpoint';
import { stage } from './stage';
import { serveStatic } from '../static/serve-static';
import { releaseUnwritten } from '../streaming/started-bodies';
import type { StaticFiles } from '../static/static-files';
import { writeResponse } from './write-response';
import { completeWhenSent } from './complete-when-sent';

export interface PipelineParts {
  readonly router: Router<Endpoint>;
  /** Pre-matching filters, before routing (absent when there are none). */
  readonly preMatching?: MonoTypeOperatorFunction<RequestContext>;
  /** Global mappers, for errors raised before an endpoint is chosen (404, 405...). */
  readonly mappers?: ExceptionMappers;
  /** Response filters that apply to every request, run after errors raised before an endpoint is chosen. */
  readonly responseFilters?: MonoTypeOperatorFunction<RequestContext>;
  readonly writers: readonly EntityWriter[];
  /** Response compression (spec 4.16); absent means never compress. */
  readonly compression?: CompressionSettings;
  /** Files served when no resource matches (`framework.http.static.directory`). */
  readonly staticFiles?: StaticFiles;
}

/**
 * The application's request pipeline:
 * pre-matching filters → route → endpoint (request filters → method → mappers → response filters) → write.
 * A request whose every stage is synchronous is answered synchronously.
 */
export class RequestPipeline {
  readonly #parts: PipelineParts;
  readonly #route = stage((ctx: RequestContext) => {
    const { router, staticFiles } = this.#parts;
    if (!staticFiles) return selectEndpoint(router, ctx).handle(ctx);
    let endpoint: Endpoint;
    try {
      endpoint = selectEndpoint(router, ctx);
    } catch (error) {
      return serveStatic(staticFiles, ctx, error);
    }
    return endpoint.handle(ctx);
  });

  constructor(parts: PipelineParts) {
    this.#parts = parts;
  }

  execute(request: Request, environment?: unknown): Response | Promise<Response> {
    const ctx = new RequestContext(request, environment);
    const { preMatching, responseFilters, mappers, writers } = this.#parts;
    let source = new Observable<RequestContext>((subscriber) => {
      subscriber.next(ctx);
      subscriber.complete();
    });
    if (preMatching) source = source.pipe(preMatching);
    source = source.pipe(
      this.#route,
      catchError((error: unknown) => {
        const recovered = toObservable(recover(ctx, error, mappers));
        return responseFilters ? recovered.pipe(responseFilters) : recovered;
      }),
    );
    let sync: Response | Promise<Response> | undefined;
    let resolve: ((response: Response | Promise<Response>) => void) | undefined;
    const answer = (written: Response | Promise<Response>) => {
      // Clean-ups (uploaded files, temporary bodies) run once the response has been sent.
      const response = written instanceof Promise ? written.then((r) => completeWhenSent(ctx, r)) : completeWhenSent(ctx, written);
      if (resolve) resolve(response);
      else sync = response;
    };
    source.subscribe({
      next: (done) => answer(this.#write(done, writers)),
      error: (error: unknown) => {
        ctx.response = defaultErrorResponse(error);
        answer(this.#write(ctx, writers));
      },
    });
    if (sync !== undefined) return sync;
    return new Promise<Response>((done) => {
      resolve = done;
    });
  }

  #write(ctx: RequestContext, writers: readonly EntityWriter[]): Response | Promise<Response> {
    // A stream or file that a filter, mapper or later stage replaced is released, never leaked.
    releaseUnwritten(ctx);
    try {
      return writeResponse(ctx, writers, this.#parts.compression);
    } catch (error) {
      ctx.response = defaultErrorResponse(error);
      ctx.response.entity = ctx.response.status === 500 ? ctx.response.entity : undefined;
      releaseUnwritten(ctx);
      return writeResponse(ctx, writers);
    }
  }
}
