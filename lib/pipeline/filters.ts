/** Request and response filters as pipeline stages: run, continue, or answer the request now. */
import { Observable } from 'rxjs/internal/Observable';
import type { MonoTypeOperatorFunction } from 'rxjs';
import { RequestAborted, type RequestContext } from '../context/request-context';
import { isResponseLike } from './to-response';
import { firstValue } from '../context/settle';
import type { Step } from './chain';
import type { StageResult } from '../context/stage';

/** A filter compiled by the build step. */
export interface CompiledFilter {
  readonly name: string;
  readonly priority: number;
  readonly bindings: readonly string[];
  readonly preMatching: boolean;
  readonly nonBlocking: boolean;
  /** A user method or provider call, or a user's RxJS operator. */
  readonly run: ((ctx: RequestContext) => unknown) | { readonly operator: MonoTypeOperatorFunction<RequestContext> };
}

function settleRequestFilter(ctx: RequestContext, result: unknown): StageResult<RequestContext> {
  if (result === undefined || result === null) return ctx;
  if (isResponseLike(result)) throw new RequestAborted(result);
  if (result instanceof Promise)
    return result.then((value: unknown) => settleRequestFilter(ctx, value) as RequestContext | Promise<RequestContext>);
  if (result instanceof Observable) {
    return firstValue(
      result,
      (value) => {
        if (isResponseLike(value)) throw new RequestAborted(value);
        return ctx;
      },
      () => ctx,
    );
  }
  return ctx;
}

/** A response filter's result only delays the response until settled. */
function settleResponseFilter(ctx: RequestContext, result: unknown): StageResult<RequestContext> {
  if (result instanceof Promise) return result.then(() => ctx);
  if (result instanceof Observable) {
    return new Observable<RequestContext>((subscriber) =>
      result.subscribe({
        error: (error: unknown) => subscriber.error(error),
        complete: () => (subscriber.next(ctx), subscriber.complete()),
      }),
    );
  }
  return ctx;
}

/** The filters that apply to an endpoint carrying `bindings`: unbound ones, and those whose every binding it has. */
export function applicable(filters: readonly CompiledFilter[], bindings: ReadonlySet<string>): CompiledFilter[] {
  return filters.filter((filter) => filter.bindings.every((name) => bindings.has(name)));
}

/** Request filters as steps: a returned response aborts to the response stages. */
export function requestSteps(filters: readonly CompiledFilter[]): Step[] {
  return filters.map(({ run }) => (typeof run === 'function' ? (ctx) => settleRequestFilter(ctx, run(ctx)) : run));
}

export function responseSteps(filters: readonly CompiledFilter[]): Step[] {
  return filters.map(({ run }) => (typeof run === 'function' ? (ctx) => settleResponseFilter(ctx, run(ctx)) : run));
}
