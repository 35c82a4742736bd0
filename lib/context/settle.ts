/** Combinators over stage results, synchronous while the results are: no Observable for a synchronous request. */
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import { catchError } from 'rxjs/internal/operators/catchError';
import { finalize } from 'rxjs/internal/operators/finalize';
import { switchMap } from 'rxjs/internal/operators/switchMap';
import { take } from 'rxjs/internal/operators/take';
import { RequestContext } from './request-context';
import type { StageResult } from './stage';

/** A pipeline stage: a function of the request context, answering now, later, or as an Observable's first value. */
export type StageFn = (ctx: RequestContext) => StageResult<RequestContext>;

/** Answers a request no resource matched, or gives `undefined` (now or later) to leave it to the next (else 404). */
export type UnroutedAnswer = (ctx: RequestContext) => Promise<RequestContext | undefined> | undefined;

type Result = StageResult<RequestContext>;

/** `result` as an Observable (for `catchError` and operator steps). */
export function toObservable(result: Result): Observable<RequestContext> {
  if (result instanceof RequestContext)
    return new Observable((subscriber) => (subscriber.next(result), subscriber.complete()));
  return from(result as PromiseLike<RequestContext> | Observable<RequestContext>);
}

/** A result as a value or a Promise of one (an Observable's first value; one completing empty is an error). */
export function settleToPromise<T>(result: StageResult<T>): T | PromiseLike<T> {
  if (!(result instanceof Observable)) return result;
  return new Promise((resolve, reject) => {
    let done = false;
    result.pipe(take(1)).subscribe({
      next: (value) => ((done = true), resolve(value)),
      error: reject,
      complete: () => done || reject(new Error('A pipeline stage completed without answering')),
    });
  });
}

/** Sends a later failure of `result` to `onError`; callers catch synchronous throws, so that path makes no closure. */
export function catchLater(result: Result, onError: (error: unknown) => Result): Result {
  if (result instanceof RequestContext) return result;
  if (result instanceof Observable) return result.pipe(catchError((error: unknown) => toObservable(onError(error))));
  return Promise.resolve(result).then(undefined, (error: unknown) => settleToPromise(onError(error)));
}

/** Applies `next` once `result` settles; a later answer may be an Observable, which is settled too. */
export function then(result: Result, next: StageFn): Result {
  if (result instanceof RequestContext) return next(result);
  if (result instanceof Observable)
    return result.pipe(
      take(1),
      switchMap((ctx) => toObservable(next(ctx))),
    );
  return Promise.resolve(result).then((ctx) => settleToPromise(next(ctx)));
}

/** Runs `done` once `result` settles, whichever way. */
export function always(result: Result, done: () => void): Result {
  if (result instanceof RequestContext) {
    done();
    return result;
  }
  if (result instanceof Observable) return result.pipe(finalize(done));
  return Promise.resolve(result).finally(done);
}

/**
 * Settles a user's Observable answer by its first value (then unsubscribed): `onValue` gets it, `onEmpty` runs when
 * there is none, `onError` (else downstream) gets its error; a throw from `onValue` or `onEmpty` travels downstream.
 */
export function firstValue(
  source: Observable<unknown>,
  onValue: (value: unknown) => RequestContext,
  onEmpty: () => RequestContext,
  onError?: (error: unknown) => RequestContext,
): Observable<RequestContext> {
  return new Observable<RequestContext>((subscriber) => {
    let settled = false;
    const settle = (produce: () => RequestContext) => {
      settled = true;
      let ctx: RequestContext;
      try {
        ctx = produce();
      } catch (error) {
        subscriber.error(error);
        return;
      }
      subscriber.next(ctx);
      subscriber.complete();
    };
    const subscription = source.subscribe({
      next: (value) => settled || settle(() => onValue(value)),
      error: (error: unknown) => (onError ? settle(() => onError(error)) : subscriber.error(error)),
      complete: () => settled || settle(onEmpty),
    });
    if (settled) subscription.unsubscribe();
    return subscription;
  });
}
